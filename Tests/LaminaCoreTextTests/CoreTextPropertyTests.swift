import Foundation
import Lamina
import LaminaDraw
import XCTest

/// Properties that hold for any text, checked on generated strings (a fixed
/// seed): scripts mixed, combining marks, emoji, right-to-left runs, line
/// separators, in one of two fonts.
///
/// One font a string: appending runs whose attribute values are different
/// objects (two fonts) crashes this toolchain's Foundation now and then
/// (`CFRunArrayInsert` comparing the runs' attributes halts; about one in
/// 50,000 appends here), so a test that appends thousands of them would
/// fail at random; see docs/drawing.md.
final class CoreTextPropertyTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  static let pieces = [
    "lorem", "ipsum", "dolor", " ", " ", " ", "  ", "\n", "\r\n", "e\u{301}", "😀", "👩‍👩‍👧",
    "שלום", "مرحبا", "漢字かな", "fi", "-", "—", "\t", "x", "Wide", "ﬃ",
  ]

  func string(_ g: inout Generator) -> NSAttributedString {
    let fonts = [
      CTFontCreateWithName("DejaVu Sans" as CFString, 14, nil),
      CTFontCreateWithName("DejaVu Serif" as CFString, 19, nil),
    ]
    var text = ""
    for _ in 0..<(1 + g.below(40)) { text += Self.pieces[g.below(Self.pieces.count)] }
    return NSAttributedString(
      string: text,
      attributes: [NSAttributedString.Key(kCTFontAttributeName as String): fonts[g.below(2)]])
  }

  func testTypesetterLinesCoverTheStringAndMatchTheFrames() {
    var g = Generator(state: 30)
    for sample in 0..<300 {
      let text = string(&g)
      let width = Double(20 + g.below(300))
      let typesetter = CTTypesetterCreateWithAttributedString(text)
      var ranges: [CFRange] = []
      var start = 0
      while start < text.length && ranges.count <= text.length {
        let count = CTTypesetterSuggestLineBreak(typesetter, start, width)
        XCTAssertGreaterThan(count, 0, "sample \(sample) at \(start)")
        guard count > 0 else { break }
        let line = CTTypesetterCreateLine(typesetter, CFRangeMake(start, count))
        XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(start, count), "sample \(sample)")
        ranges.append(CFRangeMake(start, count))
        start += count
      }
      XCTAssertEqual(start, text.length, "sample \(sample): the lines cover the string")
      let box = CGPath(
        rect: CGRect(x: 0, y: 0, width: width, height: 100_000), transform: nil)
      let frame = CTFramesetterCreateFrame(
        CTFramesetterCreateWithAttributedString(text), CFRangeMake(0, 0), box, nil)
      let frameRanges = CTFrameGetLines(frame).map(CTLineGetStringRange)
      // A frame's lines are the typesetter's, line separators included.
      XCTAssertEqual(
        frameRanges.count, ranges.count, "sample \(sample): \(text.string.debugDescription)")
      for (frameRange, range) in zip(frameRanges, ranges) {
        XCTAssertEqual(frameRange, range, "sample \(sample)")
      }
    }
  }

  func testTruncatedLinesFitAndRunsCoverTheirLine() throws {
    var g = Generator(state: 31)
    for sample in 0..<300 {
      let text = string(&g)
      let line = CTLineCreateWithAttributedString(text)
      let runs = CTLineGetGlyphRuns(line)
      XCTAssertEqual(runs.reduce(0) { $0 + $1.glyphs.count }, CTLineGetGlyphCount(line))
      var covered = 0
      for run in runs {
        let range = CTRunGetStringRange(run)
        XCTAssertGreaterThanOrEqual(range.location, 0, "sample \(sample)")
        XCTAssertLessThanOrEqual(range.location + range.length, text.length, "sample \(sample)")
        covered += range.length
      }
      XCTAssertLessThanOrEqual(covered, text.length, "sample \(sample)")
      let width = Double(30 + g.below(200))
      let type = [CTLineTruncationType.start, .middle, .end][g.below(3)]
      if let truncated = CTLineCreateTruncatedLine(line, width, type, nil) {
        XCTAssertLessThanOrEqual(
          CTLineGetTypographicBounds(truncated, nil, nil, nil), width + 0.01, "sample \(sample)")
      }
    }
  }
}
