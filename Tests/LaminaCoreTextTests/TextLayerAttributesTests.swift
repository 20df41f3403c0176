import Foundation
import Lamina
import LaminaDraw
import LaminaRender
import XCTest

/// `CATextLayer.string` as an attributed string with Core Text's
/// attributes, as iOS code sets it: drawn by a subclass into its contents
/// and by the renderer for a plain text layer.
final class TextLayerAttributesTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  final class Caption: CATextLayer {}

  func centered() -> CTParagraphStyle {
    var alignment = CTTextAlignment.center
    return withUnsafeBytes(of: &alignment) { a in
      let settings = [
        CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: a.baseAddress!)
      ]
      return CTParagraphStyleCreate(settings, 1)
    }
  }

  func caption(center: Bool, underline: Bool = false) -> NSAttributedString {
    var attributes: [NSAttributedString.Key: Any] = [
      NSAttributedString.Key(kCTFontAttributeName as String): CTFontCreateWithName(
        "DejaVu Sans" as CFString, 20, nil),
      NSAttributedString.Key(kCTForegroundColorAttributeName as String): CGColor(
        red: 1, green: 0, blue: 0, alpha: 1),
    ]
    if center {
      attributes[NSAttributedString.Key(kCTParagraphStyleAttributeName as String)] = centered()
    }
    if underline {
      attributes[NSAttributedString.Key(kCTUnderlineStyleAttributeName as String)] =
        CTUnderlineStyle.single.rawValue
    }
    return NSAttributedString(string: "HHHH", attributes: attributes)
  }

  /// Alpha of each pixel, the box of the ink and whether it is red.
  func drawn(_ layer: CATextLayer) throws -> (box: (Int, Int, Int, Int), red: Bool) {
    layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 40)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let image = try XCTUnwrap(layer.contents as? CGImage)
    let pixels = image.pixels
    let alpha = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
    let box = try XCTUnwrap(inkBox(alpha, width: image.width))
    var red = false
    for i in alpha.indices where alpha[i] > 200 {
      red = red || (pixels[i * 4] > 200 && pixels[i * 4 + 1] < 40 && pixels[i * 4 + 2] < 40)
    }
    return (box, red)
  }

  func testASubclassDrawsTheAttributesOfItsString() throws {
    let left = Caption()
    left.string = caption(center: false)
    let centered = Caption()
    centered.string = caption(center: true)
    let l = try drawn(left)
    let c = try drawn(centered)
    XCTAssertTrue(l.red && c.red, "kCTForegroundColorAttributeName")
    XCTAssertLessThan(l.box.0, 4, "left aligned")
    XCTAssertEqual(
      Double(c.box.0), Double(199 - c.box.2), accuracy: 2, "centered by the paragraph style")
    XCTAssertEqual(c.box.2 - c.box.0, l.box.2 - l.box.0)
    let underlined = Caption()
    underlined.string = caption(center: false, underline: true)
    let u = try drawn(underlined)
    XCTAssertGreaterThan(u.box.3, l.box.3 + 1, "the underline is below the baseline")
  }

  /// The rows and columns a plain text layer's text covers, rendered.
  func renderedBox(_ string: NSAttributedString) throws -> (Int, Int, Int, Int) {
    let layer = CATextLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 40)
    layer.position = CGPoint(x: 100, y: 20)
    layer.string = string
    let image = try Renderer().render(layer: layer, size: CGSize(width: 200, height: 40))
    var alpha = [UInt8](repeating: 0, count: 200 * 40)
    for y in 0..<40 {
      for x in 0..<200 { alpha[y * 200 + x] = image.pixel(x, y).a }
    }
    return try XCTUnwrap(inkBox(alpha, width: 200))
  }

  func testThePlainTextLayerDrawsUnderlinesWhereCairoDoes() throws {
    let plain = try renderedBox(caption(center: false))
    let underlined = try renderedBox(caption(center: false, underline: true))
    XCTAssertGreaterThan(underlined.3, plain.3, "the underline is below the baseline")
    // Where a subclass's drawing (Pango through Cairo) puts it.
    let subclass = Caption()
    subclass.string = caption(center: false, underline: true)
    let drawn = try self.drawn(subclass)
    XCTAssertEqual(Double(underlined.3), Double(drawn.box.3), accuracy: 1)
    XCTAssertEqual(Double(underlined.2), Double(drawn.box.2), accuracy: 1)
    XCTAssertEqual(Double(underlined.0), Double(drawn.box.0), accuracy: 1, "from the run's start")
  }

  func testThePlainTextLayerRendersTheAttributes() throws {
    let layer = CATextLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 40)
    layer.position = CGPoint(x: 100, y: 20)
    layer.string = caption(center: true)
    let image = try Renderer().render(layer: layer, size: CGSize(width: 200, height: 40))
    var minX = Int.max
    var maxX = Int.min
    var red = false
    for y in 0..<40 {
      for x in 0..<200 {
        let p = image.pixel(x, y)
        guard p.a > 128 else { continue }
        minX = min(minX, x)
        maxX = max(maxX, x)
        red = red || (p.r > 200 && p.g < 40 && p.b < 40)
      }
    }
    XCTAssertTrue(red)
    XCTAssertEqual(Double(minX), Double(199 - maxX), accuracy: 2, "centered")
  }
}
