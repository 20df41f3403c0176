// A card flip: two single-sided faces back to back; changing the card's
// transform inside a CATransaction animates it implicitly.
import Lamina
import LaminaRender

func face(_ color: CGColor, _ text: String) -> CALayer {
  let face = CALayer()
  face.frame = CGRect(x: 0, y: 0, width: 140, height: 190)
  face.backgroundColor = color
  face.cornerRadius = 12
  face.borderWidth = 2
  face.borderColor = CGColor(gray: 1, alpha: 0.8)
  face.isDoubleSided = false
  let label = CATextLayer()
  label.string = text
  label.fontSize = 28
  label.alignmentMode = .center
  label.foregroundColor = CGColor(gray: 1, alpha: 1)
  label.frame = CGRect(x: 0, y: 76, width: 140, height: 40)
  face.addSublayer(label)
  return face
}

let view = CALayer()
view.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
view.position = CGPoint(x: 120, y: 120)
view.backgroundColor = CGColor(red: 0.94, green: 0.93, blue: 0.90, alpha: 1)
var perspective = CATransform3DIdentity
perspective.m34 = -1.0 / 600
view.sublayerTransform = perspective

let card = CATransformLayer()
card.bounds = CGRect(x: 0, y: 0, width: 140, height: 190)
card.position = CGPoint(x: 120, y: 120)
let front = face(CGColor(red: 0.16, green: 0.40, blue: 0.75, alpha: 1), "Front")
let back = face(CGColor(red: 0.80, green: 0.22, blue: 0.20, alpha: 1), "Back")
back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
card.addSublayer(front)
card.addSublayer(back)
view.addSublayer(card)

// The card is on screen: on iOS the run loop commits it; here, a flush.
CATransaction.flush()

CATransaction.begin()
CATransaction.setAnimationDuration(0.8)
CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
CATransaction.commit()

// Past half way through the flip: the back shows, its label the right way round.
let flip = card.animation(forKey: "transform")!
let output = CommandLine.arguments.dropFirst().first ?? "cardflip.png"
let image = try Renderer().render(
  layer: view, size: view.bounds.size, scale: 2, time: flip.beginTime + 0.55)
try image.writePNG(to: URL(fileURLWithPath: output))
