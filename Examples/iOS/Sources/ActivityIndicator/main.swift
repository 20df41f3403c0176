// An activity indicator: one bar, replicated twelve times around a circle,
// each copy's fade starting a twelfth of a second after the one before.
import Lamina
import LaminaRender

let view = CALayer()
view.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
view.position = CGPoint(x: 60, y: 60)
view.backgroundColor = CGColor(gray: 1, alpha: 1)

let replicator = CAReplicatorLayer()
replicator.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
replicator.position = CGPoint(x: 60, y: 60)
let count = 12
replicator.instanceCount = count
replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / CGFloat(count), 0, 0, 1)
replicator.instanceDelay = 1.0 / Double(count)
view.addSublayer(replicator)

let bar = CALayer()
bar.bounds = CGRect(x: 0, y: 0, width: 7, height: 22)
bar.position = CGPoint(x: 40, y: 12)
bar.cornerRadius = 3.5
bar.backgroundColor = CGColor(red: 0.25, green: 0.28, blue: 0.33, alpha: 1)
bar.opacity = 0.15
replicator.addSublayer(bar)

let fade = CABasicAnimation(keyPath: "opacity")
fade.fromValue = 1
fade.toValue = 0.15
fade.duration = 1
fade.repeatCount = .infinity
bar.add(fade, forKey: "fade")

let output = CommandLine.arguments.dropFirst().first ?? "activity.png"
let image = try Renderer().render(layer: view, size: view.bounds.size, scale: 2, time: 1.5)
try image.writePNG(to: URL(fileURLWithPath: output))
