import Lamina
import LaminaRender

let root = CALayer()
root.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
root.position = CGPoint(x: 160, y: 100)
var perspective = CATransform3DIdentity
perspective.m34 = -1.0 / 500
root.sublayerTransform = perspective

let page = CALayer()
page.bounds = CGRect(x: 0, y: 0, width: 120, height: 150)
page.anchorPoint = CGPoint(x: 0, y: 0.5)
page.position = CGPoint(x: 160, y: 100)
page.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
page.contents = try CGImage.decode(fileAt: "photo.png")
root.addSublayer(page)

let image = try Renderer().render(layer: root, size: root.bounds.size, scale: 2)
try image.writePNG(to: URL(fileURLWithPath: "page.png"))
