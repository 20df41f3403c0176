import Foundation
import Lamina
import LaminaDraw
import XCTest

/// Carets, trailing whitespace, glyph boxes and glyphs drawn one by one.
final class CaretAndGlyphTests: XCTestCase {
  let font = CTFontCreateWithName("DejaVu Sans" as CFString, 30, nil)

  override func setUp() { LaminaDraw.install() }

  func glyph(_ character: Character) -> CGGlyph {
    var units = Array(String(character).utf16)
    var glyphs = [CGGlyph](repeating: 0, count: units.count)
    CTFontGetGlyphsForCharacters(font, &units, &glyphs, units.count)
    return glyphs[0]
  }

  func advance(_ character: Character) -> CGFloat {
    var g = glyph(character)
    return CGFloat(CTFontGetAdvancesForGlyphs(font, .horizontal, &g, nil, 1))
  }

  func line(_ text: String) -> CTLine {
    CTLineCreateWithAttributedString(
      NSAttributedString(
        string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font]))
  }

  func testCaretOffsetsAndIndexes() {
    let hhh = line("HHH")
    let h = advance("H")
    XCTAssertEqual(CTLineGetOffsetForStringIndex(hhh, 0, nil), 0, accuracy: 0.01)
    var secondary: CGFloat = -1
    XCTAssertEqual(CTLineGetOffsetForStringIndex(hhh, 2, &secondary), 2 * h, accuracy: 0.01)
    XCTAssertEqual(secondary, 2 * h, accuracy: 0.01)
    XCTAssertEqual(CTLineGetStringIndexForPosition(hhh, CGPoint(x: 2.4 * h, y: 0)), 2)
    XCTAssertEqual(CTLineGetStringIndexForPosition(hhh, CGPoint(x: 2.6 * h, y: 0)), 3)
    XCTAssertEqual(CTLineGetStringIndexForPosition(hhh, CGPoint(x: -5, y: 0)), 0)
  }

  func testTrailingWhitespaceAndPenOffsets() {
    let padded = line("HH  ")
    let h = advance("H")
    let space = advance(" ")
    XCTAssertEqual(CTLineGetTrailingWhitespaceWidth(padded), Double(2 * space), accuracy: 0.01)
    XCTAssertEqual(
      CTLineGetPenOffsetForFlush(padded, 0.5, 200), Double(200 - 2 * h) / 2, accuracy: 0.01)
    XCTAssertEqual(CTLineGetPenOffsetForFlush(padded, 1, 200), Double(200 - 2 * h), accuracy: 0.01)
    XCTAssertEqual(CTLineGetPenOffsetForFlush(padded, 0, 200), 0)
  }

  func testGlyphBoxesAreTheOutlinesBoxes() {
    var glyphs = [glyph("H"), glyph("g")]
    var rects = [CGRect](repeating: .zero, count: 2)
    let union = CTFontGetBoundingRectsForGlyphs(font, .horizontal, &glyphs, &rects, 2)
    for i in 0..<2 {
      let outline = CTFontCreatePathForGlyph(font, glyphs[i], nil)!.boundingBox
      XCTAssertEqual(rects[i].minX, outline.minX, accuracy: 0.5)
      XCTAssertEqual(rects[i].minY, outline.minY, accuracy: 0.5)
      XCTAssertEqual(rects[i].maxX, outline.maxX, accuracy: 0.5)
      XCTAssertEqual(rects[i].maxY, outline.maxY, accuracy: 0.5)
    }
    XCTAssertLessThan(rects[1].minY, 0, "g descends below the baseline")
    XCTAssertEqual(union, rects[0].union(rects[1]))
  }

  /// An iOS layer that draws glyphs with CTFontDrawGlyphs in its fill color.
  final class GlyphLayer: CALayer {
    var font: CTFont?
    var glyphs: [CGGlyph] = []
    override func draw(in ctx: CGContext) {
      guard let font else { return }
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      ctx.textMatrix = .identity
      ctx.setFillColor(CGColor(red: 0, green: 0.5, blue: 0, alpha: 1))
      ctx.move(to: CGPoint(x: 1, y: 1))
      let positions = [CGPoint(x: 10, y: 12)]
      CTFontDrawGlyphs(font, glyphs, positions, glyphs.count, ctx)
      // A line drawn outside the bounds: its pen moves do not touch the path.
      ctx.textPosition = CGPoint(x: 200, y: 200)
      CTLineDraw(
        CTLineCreateWithAttributedString(NSAttributedString(string: "H", attributes: [:])), ctx)
      // The current path survives the text.
      ctx.addLine(to: CGPoint(x: 1, y: 5))
      ctx.setStrokeColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
      ctx.strokePath()
    }
  }

  func testDrawnGlyphsSitOnTheirPositions() throws {
    let layer = GlyphLayer()
    layer.font = font
    layer.glyphs = [glyph("H")]
    layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 50)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let image = try XCTUnwrap(layer.contents as? CGImage)
    let pixels = image.pixels
    var green = [UInt8](repeating: 0, count: 60 * 50)
    var blue = 0
    for i in 0..<(60 * 50) {
      if pixels[i * 4 + 1] > 60 && pixels[i * 4 + 2] < 40 { green[i] = pixels[i * 4 + 3] }
      // The stroke from (1, 1) to (1, 5) (flipped: near the bottom left).
      if i % 60 < 4, pixels[i * 4 + 2] > 120, pixels[i * 4 + 3] > 60 { blue += 1 }
    }
    let box = try XCTUnwrap(inkBox(green, width: 60))
    var g = glyph("H")
    let rect = CTFontGetBoundingRectsForGlyphs(font, .horizontal, &g, nil, 1)
      .offsetBy(dx: 10, dy: 12)
    XCTAssertEqual(Double(box.0), Double(rect.minX), accuracy: 1)
    XCTAssertEqual(Double(box.2 + 1), Double(rect.maxX), accuracy: 1)
    XCTAssertEqual(Double(box.1), Double(50 - rect.maxY), accuracy: 1)
    XCTAssertEqual(Double(box.3 + 1), Double(50 - rect.minY), accuracy: 1)
    XCTAssertGreaterThan(blue, 2, "the line stroked after the glyphs")
  }
}
