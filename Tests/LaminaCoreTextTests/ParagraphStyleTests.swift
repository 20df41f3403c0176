import Foundation
import Lamina
import LaminaDraw
import XCTest

/// A paragraph style's indents, line heights and tab interval in frames,
/// written as iOS code sets them (`CTParagraphStyleCreate` with settings).
final class ParagraphStyleTests: XCTestCase {
  let font = CTFontCreateWithName("DejaVu Sans" as CFString, 14, nil)
  static let text =
    "Core Animation commits layer trees; Core Text sets the words of a paragraph in a frame, "
    + "line after line, where the framesetter breaks them."

  /// A style of numeric settings (CGFloat values), as iOS code makes one.
  func style(_ numbers: [(CTParagraphStyleSpecifier, CGFloat)]) -> CTParagraphStyle {
    let values = UnsafeMutablePointer<CGFloat>.allocate(capacity: max(1, numbers.count))
    defer { values.deallocate() }
    var settings: [CTParagraphStyleSetting] = []
    for (i, (spec, value)) in numbers.enumerated() {
      values[i] = value
      settings.append(
        CTParagraphStyleSetting(
          spec: spec, valueSize: MemoryLayout<CGFloat>.size, value: UnsafeRawPointer(values + i)))
    }
    return CTParagraphStyleCreate(settings, settings.count)
  }

  func frame(_ text: String, _ style: CTParagraphStyle, width: CGFloat = 300) -> CTFrame {
    let string = NSAttributedString(
      string: text,
      attributes: [
        NSAttributedString.Key(kCTFontAttributeName as String): font,
        NSAttributedString.Key(kCTParagraphStyleAttributeName as String): style,
      ])
    let box = CGPath(rect: CGRect(x: 0, y: 0, width: width, height: 2000), transform: nil)
    return CTFramesetterCreateFrame(
      CTFramesetterCreateWithAttributedString(string), CFRangeMake(0, 0), box, nil)
  }

  func origins(_ frame: CTFrame) -> [CGPoint] {
    var origins = [CGPoint](repeating: .zero, count: CTFrameGetLines(frame).count)
    CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
    return origins
  }

  /// Where each line's text ends, from the frame's left edge.
  func ends(_ frame: CTFrame) -> [Double] {
    zip(CTFrameGetLines(frame), origins(frame)).map { line, origin in
      Double(origin.x) + CTLineGetTypographicBounds(line, nil, nil, nil)
        - CTLineGetTrailingWhitespaceWidth(line)
    }
  }

  func testIndentsPlaceTheLines() {
    let indented = frame(
      Self.text, style([(.firstLineHeadIndent, 30), (.headIndent, 10), (.tailIndent, -20)]))
    let xs = origins(indented).map(\.x)
    XCTAssertGreaterThan(xs.count, 2)
    XCTAssertEqual(xs[0], 30, accuracy: 0.01, "the first line at its indent")
    for x in xs.dropFirst() {
      XCTAssertEqual(x, 10, accuracy: 0.01, "the others at the head indent")
    }
    for end in ends(indented) { XCTAssertLessThanOrEqual(end, 280.01, "before the tail indent") }
    // A hanging indent: the first line at the edge, the others in.
    let hanging = origins(frame(Self.text, style([(.headIndent, 24)]))).map(\.x)
    XCTAssertEqual(hanging[0], 0, accuracy: 0.01)
    for x in hanging.dropFirst() { XCTAssertEqual(x, 24, accuracy: 0.01) }
    // A positive tail indent is where lines end, from the leading edge.
    for end in ends(frame(Self.text, style([(.tailIndent, 150)]))) {
      XCTAssertLessThanOrEqual(end, 150.01)
    }
    // A frame without indents fills more of each line.
    XCTAssertLessThan(
      CTFrameGetLines(frame(Self.text, style([]))).count, CTFrameGetLines(indented).count + 1)
  }

  func testLineHeightsSetTheDistanceBetweenBaselines() {
    func pitch(_ settings: [(CTParagraphStyleSpecifier, CGFloat)]) -> [CGFloat] {
      let ys = origins(frame(Self.text, style(settings))).map(\.y)
      return zip(ys, ys.dropFirst()).map { $0 - $1 }
    }
    let natural = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
    for distance in pitch([(.minimumLineHeight, 30), (.maximumLineHeight, 30)]) {
      XCTAssertEqual(distance, 30, accuracy: 0.01, "a fixed line height")
    }
    for distance in pitch([(.lineHeightMultiple, 2)]) {
      XCTAssertEqual(distance, 2 * natural, accuracy: 0.01, "twice the natural height")
    }
    for distance in pitch([(.maximumLineHeight, 10)]) {
      XCTAssertEqual(distance, 10, accuracy: 0.01, "at most 10")
    }
    for distance in pitch([(.minimumLineHeight, 5)]) {
      XCTAssertEqual(distance, pitch([])[0], accuracy: 0.01, "the natural height is above 5")
    }
    for distance in pitch([(.minimumLineHeight, 30), (.lineSpacing, 4)]) {
      XCTAssertEqual(distance, 34, accuracy: 0.01, "line spacing adds to the line height")
    }
  }

  func testParagraphSpacingSeparatesParagraphsOnly() {
    let text =
      "First paragraph, long enough to wrap onto a second line here.\nSecond one.\u{2028}Same."
    func ys(_ settings: [(CTParagraphStyleSpecifier, CGFloat)]) -> [CGFloat] {
      origins(frame(text, style(settings), width: 250)).map(\.y)
    }
    let plain = ys([])
    XCTAssertEqual(plain.count, 4)
    let spaced = ys([(.paragraphSpacing, 10), (.paragraphSpacingBefore, 3)])
    XCTAssertEqual(plain[0] - spaced[0], 0, accuracy: 0.01, "nothing before the first")
    XCTAssertEqual(plain[1] - spaced[1], 0, accuracy: 0.01, "a wrapped line of the same paragraph")
    XCTAssertEqual(plain[2] - spaced[2], 13, accuracy: 0.01, "after a paragraph: 10 + 3")
    XCTAssertEqual(plain[3] - spaced[3], 13, accuracy: 0.01, "a line separator ends no paragraph")
    func height(_ settings: [(CTParagraphStyleSpecifier, CGFloat)]) -> CGFloat {
      let string = NSAttributedString(
        string: text,
        attributes: [
          NSAttributedString.Key(kCTFontAttributeName as String): font,
          NSAttributedString.Key(kCTParagraphStyleAttributeName as String): style(settings),
        ])
      return CTFramesetterSuggestFrameSizeWithConstraints(
        CTFramesetterCreateWithAttributedString(string), CFRangeMake(0, 0), nil,
        CGSize(width: 250, height: CGFloat.greatestFiniteMagnitude), nil
      ).height
    }
    XCTAssertEqual(
      height([(.paragraphSpacing, 10), (.paragraphSpacingBefore, 3)]), height([]) + 13,
      accuracy: 1)
  }

  func testTheDefaultTabInterval() {
    let line = CTFrameGetLines(frame("a\tb\tc", style([(.defaultTabInterval, 50)])))[0]
    XCTAssertEqual(Double(CTLineGetOffsetForStringIndex(line, 2, nil)), 50, accuracy: 0.01)
    XCTAssertEqual(Double(CTLineGetOffsetForStringIndex(line, 4, nil)), 100, accuracy: 0.01)
  }

  func testTheSettingsReadBack() {
    let made = style([
      (.firstLineHeadIndent, 3), (.headIndent, 4), (.tailIndent, -5), (.lineHeightMultiple, 1.5),
      (.minimumLineHeight, 6), (.maximumLineHeight, 60), (.defaultTabInterval, 36),
      (.paragraphSpacing, 7), (.paragraphSpacingBefore, 8),
    ])
    for (spec, expected) in [
      (CTParagraphStyleSpecifier.firstLineHeadIndent, CGFloat(3)), (.headIndent, 4),
      (.tailIndent, -5), (.lineHeightMultiple, 1.5), (.minimumLineHeight, 6),
      (.maximumLineHeight, 60), (.defaultTabInterval, 36), (.paragraphSpacing, 7),
      (.paragraphSpacingBefore, 8),
    ] {
      var value: CGFloat = -1
      XCTAssertTrue(
        CTParagraphStyleGetValueForSpecifier(made, spec, MemoryLayout<CGFloat>.size, &value))
      XCTAssertEqual(value, expected, "\(spec)")
    }
    var byte: UInt8 = 0
    XCTAssertFalse(CTParagraphStyleGetValueForSpecifier(made, .baseWritingDirection, 8, &byte))
  }

  func testTheSuggestedSizeCountsTheIndent() {
    let string = NSAttributedString(
      string: "Short line",
      attributes: [
        NSAttributedString.Key(kCTFontAttributeName as String): font,
        NSAttributedString.Key(kCTParagraphStyleAttributeName as String): style([
          (.firstLineHeadIndent, 30)
        ]),
      ])
    let size = CTFramesetterSuggestFrameSizeWithConstraints(
      CTFramesetterCreateWithAttributedString(string), CFRangeMake(0, 0), nil,
      CGSize(width: 500, height: CGFloat.greatestFiniteMagnitude), nil)
    let width = CTLineGetTypographicBounds(
      CTLineCreateWithAttributedString(
        NSAttributedString(
          string: "Short line",
          attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])), nil, nil,
      nil)
    XCTAssertEqual(Double(size.width), (30 + width).rounded(.up), accuracy: 0.01)
  }
}
