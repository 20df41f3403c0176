// A cube of six faces in a CATransformLayer, turned by a CABasicAnimation.
import Lamina
import LaminaRender

let side: CGFloat = 100

func face(_ transform: CATransform3D, _ color: CGColor, _ text: String) -> CALayer {
  let face = CALayer()
  face.bounds = CGRect(x: 0, y: 0, width: side, height: side)
  face.backgroundColor = color
  face.borderColor = CGColor(gray: 1, alpha: 0.9)
  face.borderWidth = 3
  face.transform = transform
  let label = CATextLayer()
  label.string = text
  label.fontSize = 44
  label.alignmentMode = .center
  label.foregroundColor = CGColor(gray: 1, alpha: 1)
  label.frame = CGRect(x: 0, y: 22, width: side, height: 60)
  face.addSublayer(label)
  return face
}

let view = CALayer()
view.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
view.position = CGPoint(x: 120, y: 120)
view.backgroundColor = CGColor(red: 0.12, green: 0.13, blue: 0.16, alpha: 1)
// Perspective, and the cube seen a little from above.
var perspective = CATransform3DIdentity
perspective.m34 = -1.0 / 500
view.sublayerTransform = CATransform3DRotate(perspective, -0.45, 1, 0, 0)

let cube = CATransformLayer()
cube.position = CGPoint(x: 120, y: 120)
let h = side / 2
cube.addSublayer(
  face(
    CATransform3DMakeTranslation(0, 0, h), CGColor(red: 0.90, green: 0.30, blue: 0.25, alpha: 1),
    "1"))
cube.addSublayer(
  face(
    CATransform3DRotate(CATransform3DMakeTranslation(h, 0, 0), .pi / 2, 0, 1, 0),
    CGColor(red: 0.95, green: 0.65, blue: 0.20, alpha: 1), "2"))
cube.addSublayer(
  face(
    CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -h), .pi, 0, 1, 0),
    CGColor(red: 0.30, green: 0.70, blue: 0.35, alpha: 1), "3"))
cube.addSublayer(
  face(
    CATransform3DRotate(CATransform3DMakeTranslation(-h, 0, 0), -.pi / 2, 0, 1, 0),
    CGColor(red: 0.25, green: 0.50, blue: 0.90, alpha: 1), "4"))
cube.addSublayer(
  face(
    CATransform3DRotate(CATransform3DMakeTranslation(0, -h, 0), .pi / 2, 1, 0, 0),
    CGColor(red: 0.60, green: 0.35, blue: 0.80, alpha: 1), "5"))
cube.addSublayer(
  face(
    CATransform3DRotate(CATransform3DMakeTranslation(0, h, 0), -.pi / 2, 1, 0, 0),
    CGColor(red: 0.20, green: 0.70, blue: 0.75, alpha: 1), "6"))
view.addSublayer(cube)

let spin = CABasicAnimation(keyPath: "transform.rotation.y")
spin.fromValue = 0
spin.toValue = 2 * CGFloat.pi
spin.duration = 4
spin.repeatCount = .infinity
cube.add(spin, forKey: "spin")

// 0.6 s into the spin: a little over a quarter of a half turn.
let output = CommandLine.arguments.dropFirst().first ?? "cube.png"
let image = try Renderer().render(layer: view, size: view.bounds.size, scale: 2, time: 0.6)
try image.writePNG(to: URL(fileURLWithPath: output))
