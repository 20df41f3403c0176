// A shimmering placeholder: a CAGradientLayer masked by skeleton shapes,
// its highlight swept across by animating its locations.
import Lamina
import LaminaRender

let view = CALayer()
view.bounds = CGRect(x: 0, y: 0, width: 300, height: 120)
view.position = CGPoint(x: 150, y: 60)
view.backgroundColor = CGColor(gray: 1, alpha: 1)

// The placeholders: an avatar and three lines of text.
let skeleton = CALayer()
skeleton.frame = view.bounds
let avatar = CALayer()
avatar.frame = CGRect(x: 16, y: 20, width: 80, height: 80)
avatar.cornerRadius = 40
avatar.backgroundColor = CGColor(gray: 0, alpha: 1)
skeleton.addSublayer(avatar)
for (i, width) in [180, 150, 110].enumerated() {
  let line = CALayer()
  line.frame = CGRect(x: 112, y: 26 + CGFloat(i) * 26, width: CGFloat(width), height: 14)
  line.cornerRadius = 7
  line.backgroundColor = CGColor(gray: 0, alpha: 1)
  skeleton.addSublayer(line)
}

let gradient = CAGradientLayer()
gradient.frame = view.bounds
gradient.colors = [
  CGColor(gray: 0.85, alpha: 1), CGColor(gray: 1, alpha: 1), CGColor(gray: 0.85, alpha: 1),
]
gradient.startPoint = CGPoint(x: 0, y: 0.5)
gradient.endPoint = CGPoint(x: 1, y: 0.5)
gradient.locations = [0, 0.5, 1]
gradient.mask = skeleton
view.addSublayer(gradient)

let sweep = CABasicAnimation(keyPath: "locations")
sweep.fromValue = [-1.0, -0.5, 0.0]
sweep.toValue = [1.0, 1.5, 2.0]
sweep.duration = 1.2
sweep.repeatCount = .infinity
gradient.add(sweep, forKey: "shimmer")

// Half way through a sweep: the highlight over the middle of the card.
let output = CommandLine.arguments.dropFirst().first ?? "shimmer.png"
let image = try Renderer().render(layer: view, size: view.bounds.size, scale: 2, time: 0.6)
try image.writePNG(to: URL(fileURLWithPath: output))
