// A progress ring: a track and a CAShapeLayer whose strokeEnd animates.
import Lamina
import LaminaRender

let view = CALayer()
view.bounds = CGRect(x: 0, y: 0, width: 160, height: 160)
view.position = CGPoint(x: 80, y: 80)
view.backgroundColor = CGColor(gray: 1, alpha: 1)

// From 12 o'clock, clockwise on screen.
let circle = CGMutablePath()
circle.addArc(
  center: CGPoint(x: 80, y: 80), radius: 56, startAngle: -.pi / 2, endAngle: 3 * .pi / 2,
  clockwise: false)

let track = CAShapeLayer()
track.frame = view.bounds
track.path = circle
track.fillColor = nil
track.strokeColor = CGColor(gray: 0.9, alpha: 1)
track.lineWidth = 14
view.addSublayer(track)

let progress = CAShapeLayer()
progress.frame = view.bounds
progress.path = circle
progress.fillColor = nil
progress.strokeColor = CGColor(red: 0.18, green: 0.55, blue: 0.95, alpha: 1)
progress.lineWidth = 14
progress.lineCap = .round
progress.strokeEnd = 0.72
view.addSublayer(progress)

let fill = CABasicAnimation(keyPath: "strokeEnd")
fill.fromValue = 0
fill.toValue = 0.72
fill.duration = 1.5
fill.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
progress.add(fill, forKey: "fill")

let label = CATextLayer()
label.string = "72%"
label.fontSize = 30
label.alignmentMode = .center
label.foregroundColor = CGColor(red: 0.20, green: 0.22, blue: 0.26, alpha: 1)
label.frame = CGRect(x: 0, y: 62, width: 160, height: 40)
view.addSublayer(label)

// Part way: the ring is still filling.
let output = CommandLine.arguments.dropFirst().first ?? "progress.png"
let image = try Renderer().render(layer: view, size: view.bounds.size, scale: 2, time: 0.9)
try image.writePNG(to: URL(fileURLWithPath: output))
