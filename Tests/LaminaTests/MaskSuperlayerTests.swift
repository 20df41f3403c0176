import Lamina
import XCTest

// A mask's `superlayer` is the layer it masks, as on iOS, where code sizes
// masks from it (`mask.frame = mask.superlayer!.bounds`).
final class MaskSuperlayerTests: XCTestCase {
  func testTheMasksSuperlayerIsTheMaskedLayer() {
    let card = CALayer()
    card.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
    let mask = CAGradientLayer()
    card.mask = mask
    XCTAssertTrue(mask.superlayer === card)
    XCTAssertNil(card.sublayers, "a mask is not a sublayer")
    mask.frame = mask.superlayer!.bounds
    XCTAssertEqual(mask.frame, CGRect(x: 0, y: 0, width: 120, height: 80))
    XCTAssertEqual(mask.position, CGPoint(x: 60, y: 40))
    XCTAssertTrue(mask.isDescendant(of: card))
  }

  func testAssigningAMaskTakesItFromItsParentOrItsOldOwner() {
    let parent = CALayer()
    let shape = CAShapeLayer()
    parent.addSublayer(shape)
    let a = CALayer()
    a.mask = shape
    XCTAssertNil(parent.sublayers, "the mask left its superlayer")
    XCTAssertTrue(shape.superlayer === a)
    // The same layer as another layer's mask leaves the first.
    let b = CALayer()
    b.mask = shape
    XCTAssertNil(a.mask)
    XCTAssertTrue(shape.superlayer === b)
    // Replacing and removing update it.
    let other = CALayer()
    b.mask = other
    XCTAssertNil(shape.superlayer)
    XCTAssertTrue(other.superlayer === b)
    other.removeFromSuperlayer()
    XCTAssertNil(b.mask, "removeFromSuperlayer() of a mask unsets the mask")
    XCTAssertNil(other.superlayer)
    // Added as a sublayer, a mask stops being one.
    b.mask = other
    parent.addSublayer(other)
    XCTAssertNil(b.mask)
    XCTAssertTrue(other.superlayer === parent)
    // Setting the same mask again keeps it.
    b.mask = shape
    b.mask = shape
    XCTAssertTrue(b.mask === shape)
    XCTAssertTrue(shape.superlayer === b)
  }

  func testNoRetainCycle() {
    weak var weakOwner: CALayer?
    weak var weakMask: CALayer?
    do {
      let owner = CALayer()
      let mask = CALayer()
      owner.mask = mask
      weakOwner = owner
      weakMask = mask
      XCTAssertTrue(mask.superlayer === owner)
    }
    XCTAssertNil(weakOwner)
    XCTAssertNil(weakMask)
  }

  func testConversionAndTimeGoThroughTheMaskedLayer() {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let card = CALayer()
    card.frame = CGRect(x: 30, y: 40, width: 100, height: 100)
    root.addSublayer(card)
    let mask = CALayer()
    mask.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
    card.mask = mask
    // A point of the mask, in the root: through the card, once.
    XCTAssertEqual(mask.convert(CGPoint.zero, to: root), CGPoint(x: 40, y: 50))
    XCTAssertEqual(root.convert(CGPoint(x: 40, y: 50), to: mask), .zero)
    card.speed = 2
    XCTAssertEqual(mask.convertTime(1, from: root), 2)
    // Hit testing never reaches a mask.
    XCTAssertTrue(root.hitTest(CGPoint(x: 45, y: 55)) === card)
    // The presentation copy's mask is the copy of the mask, its superlayer the card's copy.
    let shown = PresentationTree(root: root).update(time: 0)
    let shownCard = shown.sublayers![0]
    XCTAssertTrue(shownCard.mask?.superlayer === shownCard)
    XCTAssertTrue(shownCard.mask?.model() === mask)
  }
}
