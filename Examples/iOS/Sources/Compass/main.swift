// A compass: a circle layer, the four letters as CATextLayers, and a needle
// drawn by its delegate's draw(_:in:), turned with setAffineTransform(_:).
import Lamina
import LaminaRender

/// Draws the needle, as a view that is a layer's delegate does on iOS.
final class NeedleDrawer: NSObject, CALayerDelegate {
  func draw(_ layer: CALayer, in ctx: CGContext) {
    let b = layer.bounds
    // The north half red, the south half slate.
    ctx.setFillColor(CGColor(red: 0.86, green: 0.16, blue: 0.12, alpha: 1))
    ctx.move(to: CGPoint(x: b.midX, y: b.minY))
    ctx.addLine(to: CGPoint(x: b.maxX, y: b.midY))
    ctx.addLine(to: CGPoint(x: b.minX, y: b.midY))
    ctx.closePath()
    ctx.fillPath()
    ctx.setFillColor(CGColor(red: 0.30, green: 0.34, blue: 0.40, alpha: 1))
    ctx.move(to: CGPoint(x: b.minX, y: b.midY))
    ctx.addLine(to: CGPoint(x: b.maxX, y: b.midY))
    ctx.addLine(to: CGPoint(x: b.midX, y: b.maxY))
    ctx.closePath()
    ctx.fillPath()
    // The pivot.
    ctx.setFillColor(CGColor(gray: 0.95, alpha: 1))
    ctx.fillEllipse(in: CGRect(x: b.midX - 4, y: b.midY - 4, width: 8, height: 8))
  }
}

let size = CGSize(width: 220, height: 220)
let center = CGPoint(x: size.width / 2, y: size.height / 2)

let view = CALayer()
view.bounds = CGRect(origin: .zero, size: size)
view.position = center
view.backgroundColor = CGColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)

let face = CAShapeLayer()
face.frame = view.bounds
face.path = CGPath(ellipseIn: view.bounds.insetBy(dx: 12, dy: 12), transform: nil)
face.fillColor = CGColor(gray: 1, alpha: 1)
face.strokeColor = CGColor(red: 0.30, green: 0.34, blue: 0.40, alpha: 1)
face.lineWidth = 4
view.addSublayer(face)

for (i, letter) in ["N", "E", "S", "W"].enumerated() {
  let angle = CGFloat(i) * .pi / 2
  let label = CATextLayer()
  label.string = letter
  label.fontSize = 20
  label.foregroundColor =
    letter == "N"
    ? CGColor(red: 0.86, green: 0.16, blue: 0.12, alpha: 1)
    : CGColor(red: 0.30, green: 0.34, blue: 0.40, alpha: 1)
  label.alignmentMode = .center
  label.contentsScale = 2
  label.bounds = CGRect(x: 0, y: 0, width: 26, height: 26)
  label.position = CGPoint(x: center.x + 78 * sin(angle), y: center.y - 78 * cos(angle) + 2)
  view.addSublayer(label)
}

let drawer = NeedleDrawer()
let needle = CALayer()
needle.bounds = CGRect(x: 0, y: 0, width: 22, height: 130)
needle.position = center
needle.contentsScale = 2
needle.delegate = drawer
needle.setNeedsDisplay()
// A heading of 30°.
needle.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
view.addSublayer(needle)

let output = CommandLine.arguments.dropFirst().first ?? "compass.png"
let image = try Renderer().render(layer: view, size: size, scale: 2, time: 0)
try image.writePNG(to: URL(fileURLWithPath: output))
