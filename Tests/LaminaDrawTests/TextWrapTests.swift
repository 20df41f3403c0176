import Foundation
import Lamina
import LaminaDraw
import XCTest

/// A wrapped text layer breaks a word wider than its bounds between
/// characters, with no hyphen, as Core Animation's text layers do (Pango
/// inserts one unless told not to).
final class TextWrapTests: XCTestCase {
  func testAWordBrokenAcrossLinesGetsNoHyphen() throws {
    let layer = CATextLayer()
    layer.string = "abcdefghijklmnopqrstuvwx"
    layer.font = "DejaVu Sans"
    layer.fontSize = 20
    layer.isWrapped = true
    layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 400)
    let style = try XCTUnwrap(TextStyle(layer))
    let glyphs = GlyphAtlas().glyphs(style, scale: 1)
    let rows = Set(glyphs.map { Int($0.rect.minY.rounded()) })
    XCTAssertGreaterThan(rows.count, 3, "the word is broken over several lines")
    XCTAssertEqual(glyphs.count, 24, "one glyph per letter: no hyphens added")
  }
}
