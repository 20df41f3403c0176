import Lamina
import XCTest

/// `CALayer.maskMode` (Lamina extension): its default, key-value coding,
/// copies to presentation layers, and that a change is seen.
final class MaskModeTests: XCTestCase {
  func testDefaultKeyValueCodingAndPresentationCopies() {
    let layer = CALayer()
    XCTAssertEqual(layer.maskMode, .alpha)
    XCTAssertEqual(layer.value(forKey: "maskMode") as? CALayerMaskMode, .alpha)
    layer.setValue("luminanceInverted", forKey: "maskMode")
    XCTAssertEqual(layer.maskMode, .luminanceInverted)
    layer.setValue(CALayerMaskMode.alphaInverted, forKey: "maskMode")
    XCTAssertEqual(layer.maskMode, .alphaInverted)
    // A value that is not a mode is ignored, as for every enumeration key.
    layer.setValue("luma", forKey: "maskMode")
    XCTAssertEqual(layer.maskMode, .alphaInverted)
    XCTAssertEqual(
      CALayerMaskMode.all.map(\.rawValue),
      ["alpha", "alphaInverted", "luminance", "luminanceInverted"])
    XCTAssertEqual(CALayerMaskMode.all.filter(\.isInverted), [.alphaInverted, .luminanceInverted])

    let root = CALayer()
    let masked = CALayer()
    masked.mask = CALayer()
    masked.maskMode = .luminance
    root.addSublayer(masked)
    let tree = PresentationTree(root: root)
    let first = tree.update(time: 0)
    XCTAssertEqual(first.sublayers?.first?.maskMode, .luminance)
    // A change of the model reaches the next presentation tree.
    masked.maskMode = .alphaInverted
    XCTAssertEqual(tree.update(time: 1).sublayers?.first?.maskMode, .alphaInverted)
  }
}
