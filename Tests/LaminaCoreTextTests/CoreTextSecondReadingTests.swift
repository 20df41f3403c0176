import Foundation
import Lamina
import LaminaDraw
import XCTest

/// A second reading of the Core Text subset: programs written as iOS code
/// is (text to paths glyph by glyph, a frame's lines walked and truncated,
/// lines of multi-line strings), and hostile font sizes.
final class CoreTextSecondReadingTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  let fontKey = NSAttributedString.Key(kCTFontAttributeName as String)

  /// The usual iOS conversion of a line to one `CGPath`: each run's glyphs
  /// and positions, outlined in the run's font (`CTRunGetAttributes`),
  /// moved to their positions.
  func outline(_ line: CTLine) throws -> CGPath {
    let path = CGMutablePath()
    for run in CTLineGetGlyphRuns(line) {
      let attributes = CTRunGetAttributes(run)
      let font = try XCTUnwrap(attributes[fontKey] as? CTFont, "every run has its font")
      let count = CTRunGetGlyphCount(run)
      var glyphs = [CGGlyph](repeating: 0, count: count)
      var positions = [CGPoint](repeating: .zero, count: count)
      CTRunGetGlyphs(run, CFRangeMake(0, 0), &glyphs)
      CTRunGetPositions(run, CFRangeMake(0, 0), &positions)
      for i in 0..<count {
        guard let glyph = CTFontCreatePathForGlyph(font, glyphs[i], nil) else { continue }
        path.addPath(
          glyph, transform: CGAffineTransform(translationX: positions[i].x, y: positions[i].y))
      }
    }
    return path
  }

  /// A space's outline is empty (Cairo gives no path data for it, and
  /// `CTFontCreatePathForGlyph` unwrapped the missing data); a glyph the
  /// font does not have has none.
  func testASpacesOutlineIsAnEmptyPath() throws {
    let font = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)
    var characters: [UniChar] = [0x20]
    var glyph: CGGlyph = 0
    XCTAssertTrue(CTFontGetGlyphsForCharacters(font, &characters, &glyph, 1))
    let space = try XCTUnwrap(CTFontCreatePathForGlyph(font, glyph, nil))
    XCTAssertTrue(space.isEmpty)
    XCTAssertNil(CTFontCreatePathForGlyph(font, 65000, nil), "DejaVu Sans has fewer glyphs")
  }

  /// Text with spaces and Chinese (which DejaVu Sans lacks: fontconfig's
  /// WenQuanYi draws it) turned into a path glyph by glyph covers what the
  /// line's image bounds say. Core Text names the substituted font in the
  /// run's attributes ("Attribute dictionaries can be manufactured in the
  /// case of font substitution", CTRunGetAttributes); Lamina gave the
  /// string's font, whose outlines of WenQuanYi's glyph numbers are other
  /// letters.
  func testTextWithSpacesAndAFallbackFontBecomesThePathItsImageBoundsSay() throws {
    let font = CTFontCreateWithName("DejaVu Sans" as CFString, 30, nil)
    let line = CTLineCreateWithAttributedString(
      NSAttributedString(string: "Hi 中文 x", attributes: [fontKey: font]))
    let runs = CTLineGetGlyphRuns(line)
    let chinese = try XCTUnwrap(runs.first { CTRunGetStringRange($0).location == 3 })
    let substituted = try XCTUnwrap(CTRunGetAttributes(chinese)[fontKey] as? CTFont)
    XCTAssertNotEqual(CTFontCopyFamilyName(substituted), "DejaVu Sans")
    XCTAssertEqual(CTFontGetSize(substituted), 30, accuracy: 0.01)
    let bounds = try outline(line).boundingBox
    let image = CTLineGetImageBounds(line, nil)
    XCTAssertEqual(bounds.minX, image.minX, accuracy: 0.5)
    XCTAssertEqual(bounds.maxX, image.maxX, accuracy: 0.5)
    XCTAssertEqual(bounds.minY, image.minY, accuracy: 0.5)
    XCTAssertEqual(bounds.maxY, image.maxY, accuracy: 0.5)
  }

  /// A run of a string without a font is in the default font, and says
  /// so ("if the run is missing critical attributes"): the iOS program's
  /// `as! CTFont` finds it.
  func testARunWithoutAFontNamesTheDefaultFont() throws {
    let line = CTLineCreateWithAttributedString(NSAttributedString(string: "plain"))
    let run = try XCTUnwrap(CTLineGetGlyphRuns(line).first)
    let font = try XCTUnwrap(CTRunGetAttributes(run)[fontKey] as? CTFont)
    XCTAssertEqual(CTFontGetSize(font), 12)
    let image = CTLineGetImageBounds(line, nil)
    XCTAssertEqual(try outline(line).boundingBox.maxX, image.maxX, accuracy: 0.5)
  }

  func attributed(_ text: String) -> NSAttributedString {
    NSAttributedString(
      string: text,
      attributes: [fontKey: CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)])
  }

  func frame(_ text: String, width: CGFloat = 600) -> CTFrame {
    CTFramesetterCreateFrame(
      CTFramesetterCreateWithAttributedString(attributed(text)), CFRangeMake(0, 0),
      CGPath(rect: CGRect(x: 0, y: 0, width: width, height: 400), transform: nil), nil)
  }

  /// A frame's lines are its typesetter's ("a CTFramesetter … calls into
  /// the typesetter to generate the typeset lines to fill the frame",
  /// CTTypesetter): each line's range ends with its line separator, so the
  /// lines' ranges follow one another and cover the string. Lamina's frame
  /// lines left their separators out.
  func testAFramesLineRangesAreItsTypesettersLines() {
    let text = "ab\ncd\r\nef\u{2029}gh"
    let lines = CTFrameGetLines(frame(text))
    XCTAssertEqual(
      lines.map { CTLineGetStringRange($0) },
      [CFRangeMake(0, 3), CFRangeMake(3, 4), CFRangeMake(7, 3), CFRangeMake(10, 2)])
    let typesetter = CTTypesetterCreateWithAttributedString(attributed(text))
    var start = 0
    for line in lines {
      let count = CTTypesetterSuggestLineBreak(typesetter, start, 600)
      XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(start, count))
      start += count
    }
  }

  /// iOS code that ends a frame with an ellipsis truncates the frame's
  /// last line: the result is that line's text shortened, not the frame's
  /// first text (Lamina laid the whole frame out as one line to shorten).
  func testTruncatingAFramesLineShortensThatLine() throws {
    let text = "first line here\nsecond line is long and wraps"
    let lines = CTFrameGetLines(frame(text))
    XCTAssertEqual(lines.count, 2)
    let second = lines[1]
    XCTAssertGreaterThan(CTLineGetTypographicBounds(second, nil, nil, nil), 200)
    let truncated = try XCTUnwrap(CTLineCreateTruncatedLine(second, 150, .end, nil))
    XCTAssertLessThanOrEqual(CTLineGetTypographicBounds(truncated, nil, nil, nil), 150.01)
    let runs = CTLineGetGlyphRuns(truncated)
    XCTAssertEqual(
      CTRunGetStringRange(try XCTUnwrap(runs.first)).location, 16, "starts at 'second'")
    // What it shows is the start of "second line…": its first glyphs are
    // the line's.
    let shown = CTRunGetGlyphCount(runs[0])
    var glyphs = [CGGlyph](repeating: 0, count: shown)
    CTRunGetGlyphs(runs[0], CFRangeMake(0, 0), &glyphs)
    let original = CTLineGetGlyphRuns(second)[0]
    var expected = [CGGlyph](repeating: 0, count: shown)
    CTRunGetGlyphs(original, CFRangeMake(0, CFIndex(shown)), &expected)
    XCTAssertEqual(glyphs, expected)
  }

  /// A line of a string with line separators shows them as nothing, as
  /// Core Text does; Pango's one-line layout drew a box for each.
  func testALineOfAMultiLineStringDrawsNoBoxesForItsSeparators() throws {
    func drawn(_ text: String) throws -> (width: Double, ink: Int, image: CGRect) {
      let line = CTLineCreateWithAttributedString(attributed(text))
      let context = try XCTUnwrap(CGContext.bitmap(width: 120, height: 30))
      context.translateBy(x: 0, y: 30)
      context.scaleBy(x: 1, y: -1)
      context.textPosition = CGPoint(x: 2, y: 8)
      CTLineDraw(line, context)
      let pixels = try XCTUnwrap(context.makeImage()).pixels
      let ink = stride(from: 3, to: pixels.count, by: 4).filter { pixels[$0] > 0 }.count
      return (CTLineGetTypographicBounds(line, nil, nil, nil), ink, CTLineGetImageBounds(line, nil))
    }
    let plain = try drawn("abcd")
    for text in ["ab\ncd", "ab\r\ncd", "ab\u{2028}cd", "ab\u{2029}cd"] {
      let separated = try drawn(text)
      XCTAssertEqual(separated.width, plain.width, accuracy: 0.01, text.debugDescription)
      XCTAssertEqual(separated.ink, plain.ink, text.debugDescription)
      XCTAssertEqual(separated.image.width, plain.image.width, accuracy: 0.01)
    }
    let line = CTLineCreateWithAttributedString(attributed("ab\ncd"))
    XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(0, 5))
    XCTAssertEqual(CTLineGetStringIndexForPosition(line, CGPoint(x: 1000, y: 0)), 5)
  }

  /// A font of an absurd size (a program's NaN-free but unchecked value)
  /// must not break the font file for every other size: FreeType fails past
  /// 65,535 pixels per em and Cairo then marks the face failed for good.
  func testAHugeFontSizeLeavesTheFontsOtherSizesDrawing() throws {
    var characters: [UniChar] = [0x61]
    func outlineOfA(_ size: CGFloat) -> CGRect? {
      let font = CTFontCreateWithName("DejaVu Serif" as CFString, size, nil)
      var glyph: CGGlyph = 0
      CTFontGetGlyphsForCharacters(font, &characters, &glyph, 1)
      return CTFontCreatePathForGlyph(font, glyph, nil)?.boundingBox
    }
    let before = try XCTUnwrap(outlineOfA(20))
    for size: CGFloat in [1e5, 1e9, .greatestFiniteMagnitude, .infinity] {
      let huge = CTFontCreateWithName("DejaVu Serif" as CFString, size, nil)
      let line = CTLineCreateWithAttributedString(
        NSAttributedString(string: "a", attributes: [fontKey: huge]))
      XCTAssertGreaterThan(CTLineGetTypographicBounds(line, nil, nil, nil), 0)
      let context = try XCTUnwrap(CGContext.bitmap(width: 20, height: 20))
      CTLineDraw(line, context)
    }
    // A text layer of a huge font size, drawn (CATextLayer's own path).
    let layer = CATextLayer()
    layer.string = "a"
    layer.font = "DejaVu Serif" as CFString
    layer.fontSize = 1e6
    layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let after = try XCTUnwrap(outlineOfA(20), "DejaVu Serif still has outlines")
    XCTAssertEqual(after.width, before.width, accuracy: 0.01)
    XCTAssertEqual(after.height, before.height, accuracy: 0.01)
  }

  /// Ranges as long as `CFIndex.max` ("to the end", written the long way)
  /// trapped on an overflow in `CTRunDraw`, `CTRunGetTypographicBounds` and
  /// `CTTypesetterCreateLine`; they are clamped to the run or the string.
  func testRangesOfTheLargestLengthAreClamped() throws {
    let text = attributed("Hello world")
    let line = CTLineCreateWithAttributedString(text)
    let run = try XCTUnwrap(CTLineGetGlyphRuns(line).first)
    let rest = CTRunGetTypographicBounds(run, CFRangeMake(1, 0), nil, nil, nil)
    XCTAssertEqual(
      CTRunGetTypographicBounds(run, CFRangeMake(1, CFIndex.max), nil, nil, nil), rest)
    let context = try XCTUnwrap(CGContext.bitmap(width: 40, height: 40))
    CTRunDraw(run, context, CFRangeMake(1, CFIndex.max))
    let typesetter = CTTypesetterCreateWithAttributedString(text)
    XCTAssertEqual(
      CTLineGetStringRange(CTTypesetterCreateLine(typesetter, CFRangeMake(2, CFIndex.max))),
      CFRangeMake(2, 9))
  }

  /// A copy with traits of a font whose weight has a hyphen in Pango's
  /// words ("Ultra-Light") is named "DejaVu Sans, Ultra-Light Italic"; that
  /// name was read as a PostScript name (the part after the hyphen a
  /// style), so a copy of the copy had the family "DejaVu Sans,Ultra".
  func testCopiesWithTraitsOfAnExtraLightFontKeepTheFamilyAndWeight() throws {
    let light = CTFontCreateWithName("DejaVu Sans ExtraLight" as CFString, 100, nil)
    let italic = try XCTUnwrap(
      CTFontCreateCopyWithSymbolicTraits(light, 0, nil, .traitItalic, .traitItalic))
    XCTAssertEqual(CTFontGetSymbolicTraits(italic), .traitItalic)
    let upright = try XCTUnwrap(
      CTFontCreateCopyWithSymbolicTraits(italic, 0, nil, [], .traitItalic))
    XCTAssertEqual(CTFontCopyFamilyName(upright), "DejaVu Sans")
    XCTAssertEqual(CTFontGetSymbolicTraits(upright), [])
    // ExtraLight's "l" is a stem half as wide as Book's.
    func stem(_ font: CTFont) throws -> CGFloat {
      var characters: [UniChar] = [0x6C]
      var glyph: CGGlyph = 0
      CTFontGetGlyphsForCharacters(font, &characters, &glyph, 1)
      return try XCTUnwrap(CTFontCreatePathForGlyph(font, glyph, nil)).boundingBox.width
    }
    XCTAssertEqual(try stem(upright), try stem(light), accuracy: 0.01)
  }

  /// "If this parameter is set to NULL, then no truncation token is used
  /// and the line is simply cut off" (CTLineCreateTruncatedLine): no
  /// ellipsis, as many whole characters kept as fit. Lamina drew Pango's
  /// "…" whatever the token.
  func testWithoutATokenALineIsCutOffWithNoEllipsis() throws {
    func glyphs(_ line: CTLine) -> [CGGlyph] {
      CTLineGetGlyphRuns(line).flatMap { run -> [CGGlyph] in
        var glyphs = [CGGlyph](repeating: 0, count: CTRunGetGlyphCount(run))
        CTRunGetGlyphs(run, CFRangeMake(0, 0), &glyphs)
        return glyphs
      }
    }
    func width(_ text: String) -> Double {
      CTLineGetTypographicBounds(CTLineCreateWithAttributedString(attributed(text)), nil, nil, nil)
    }
    let text = "The quick brown fox jumps"
    let line = CTLineCreateWithAttributedString(attributed(text))
    let whole = glyphs(line)
    var ellipsisUnits: [UniChar] = [0x2026]
    var ellipsis: CGGlyph = 0
    CTFontGetGlyphsForCharacters(
      CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil), &ellipsisUnits, &ellipsis, 1)

    let end = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .end, nil))
    XCTAssertFalse(glyphs(end).contains(ellipsis))
    XCTAssertEqual(glyphs(end), Array(whole.prefix(glyphs(end).count)), "the line's start")
    let endWidth = CTLineGetTypographicBounds(end, nil, nil, nil)
    XCTAssertLessThanOrEqual(endWidth, 120)
    XCTAssertGreaterThan(endWidth, 120 - width("w"), "as many characters as fit")
    XCTAssertEqual(CTLineGetStringRange(end), CTLineGetStringRange(line))

    let start = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .start, nil))
    XCTAssertFalse(glyphs(start).contains(ellipsis))
    XCTAssertEqual(glyphs(start), Array(whole.suffix(glyphs(start).count)), "the line's end")
    XCTAssertLessThanOrEqual(CTLineGetTypographicBounds(start, nil, nil, nil), 120)

    let middle = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .middle, nil))
    let m = glyphs(middle)
    XCTAssertFalse(m.contains(ellipsis))
    XCTAssertEqual(m.first, whole.first)
    XCTAssertEqual(m.last, whole.last)
    XCTAssertLessThan(m.count, whole.count)
    XCTAssertLessThanOrEqual(CTLineGetTypographicBounds(middle, nil, nil, nil), 120)

    XCTAssertNil(CTLineCreateTruncatedLine(line, 2, .end, nil), "not one character fits")
  }

  /// A frame that shows the first of three lines: its visible range, and
  /// the range a suggested size fits, run through that line's separator
  /// ("The next frame would start where this frame ends",
  /// CTFrameGetVisibleStringRange), so the next frame starts at "cd".
  func testTheVisibleAndFittingRangesEndAfterTheLastLinesSeparator() {
    let text = attributed("ab\ncd\nef")
    let framesetter = CTFramesetterCreateWithAttributedString(text)
    let oneLine = CTFramesetterCreateFrame(
      framesetter, CFRangeMake(0, 0),
      CGPath(rect: CGRect(x: 0, y: 0, width: 300, height: 30), transform: nil), nil)
    XCTAssertEqual(CTFrameGetLines(oneLine).count, 1)
    XCTAssertEqual(CTFrameGetVisibleStringRange(oneLine), CFRangeMake(0, 3))
    var fit = CFRange()
    _ = CTFramesetterSuggestFrameSizeWithConstraints(
      framesetter, CFRangeMake(0, 0), nil, CGSize(width: 300, height: 30), &fit)
    XCTAssertEqual(fit, CFRangeMake(0, 3))
  }

  /// "A glyph run is a set of consecutive glyphs sharing the same
  /// attributes and direction" (CTRun): iOS code finds a link's glyphs by
  /// the run that carries its attribute. In a string without fonts Pango
  /// made one run of the whole line.
  func testRunsEndWhereTheStringsAttributesChange() {
    let link = NSAttributedString.Key("LinkTarget")
    let text = NSMutableAttributedString(string: "see the link here")
    text.addAttribute(link, value: "https://example.com", range: NSRange(location: 8, length: 4))
    let runs = CTLineGetGlyphRuns(CTLineCreateWithAttributedString(text))
    XCTAssertEqual(
      runs.map { CTRunGetStringRange($0) },
      [CFRangeMake(0, 8), CFRangeMake(8, 4), CFRangeMake(12, 5)])
    XCTAssertEqual(
      runs.map { CTRunGetAttributes($0)[link] as? String }, [nil, "https://example.com", nil])
  }
}
