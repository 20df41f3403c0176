import Foundation
import Lamina
import LaminaDraw
import XCTest

/// Core Text's lines and runs read as iOS text code reads Apple's
/// `CFArray`s: with `CFArrayGetCount` and `CFArrayGetValueAtIndex` plus an
/// `unsafeBitCast` to the object, or by casting (`as! [CTLine]`,
/// `as? [CTRun]`). The programs below are written as for iOS, with
/// `import Lamina` for the frameworks.
final class CFArrayPatternTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  private let text = "Several words that wrap onto more than one line of the frame"

  private func makeFrame() -> CTFrame {
    let font = CTFontCreateWithName("DejaVu Sans" as CFString, 16, nil)
    let string = NSAttributedString(
      string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
    let setter = CTFramesetterCreateWithAttributedString(string as CFAttributedString)
    let path = CGPath(rect: CGRect(x: 0, y: 0, width: 160, height: 200), transform: nil)
    return CTFramesetterCreateFrame(setter, CFRangeMake(0, 0), path, nil)
  }

  func testCountAndValueAtIndexWithUnsafeBitCast() {
    let frame = makeFrame()
    let lines = CTFrameGetLines(frame)
    let count = CFArrayGetCount(lines)
    XCTAssertGreaterThan(count, 1, "the text wraps")
    var covered = 0
    for i in 0..<count {
      let line = unsafeBitCast(CFArrayGetValueAtIndex(lines, i), to: CTLine.self)
      XCTAssertTrue(line === CTFrameGetLines(frame)[i])
      let range = CTLineGetStringRange(line)
      XCTAssertEqual(range.location, covered, "line \(i) starts where the last ended")
      covered += range.length
      let runs = CTLineGetGlyphRuns(line)
      for j in 0..<CFArrayGetCount(runs) {
        let run = unsafeBitCast(CFArrayGetValueAtIndex(runs, j), to: CTRun.self)
        let n = CTRunGetGlyphCount(run)
        var glyphs = [CGGlyph](repeating: 0, count: n)
        CTRunGetGlyphs(run, CFRangeMake(0, 0), &glyphs)
        XCTAssertEqual(glyphs, run.glyphs)
        XCTAssertGreaterThan(glyphs.filter { $0 != 0 }.count, 0, "the run's letters")
      }
    }
    XCTAssertEqual(covered, text.utf16.count)
    XCTAssertNil(CFArrayGetValueAtIndex(lines, count), "past the end")
  }

  func testCastsAsIOSCodeWritesThem() throws {
    let frame = makeFrame()
    let lines = CTFrameGetLines(frame) as! [CTLine]
    let runs = try XCTUnwrap(CTLineGetGlyphRuns(lines[0]) as? [CTRun])
    XCTAssertEqual(lines.count, CFArrayGetCount(CTFrameGetLines(frame)))
    XCTAssertGreaterThan(runs.count, 0)
    let array: CFArray = CTFrameGetLines(frame)
    XCTAssertTrue((array as! [CTLine])[0] === lines[0])
    var origins = [CGPoint](repeating: .zero, count: lines.count)
    CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
    XCTAssertGreaterThan(origins[0].y, origins[1].y, "y up: the first line on top")
  }

  /// A frame drawn line by line through the Core Foundation calls paints
  /// what `CTFrameDraw` paints.
  func testDrawingLineByLineMatchesCTFrameDraw() throws {
    let frame = makeFrame()
    func draw(_ body: (CGContext) -> Void) throws -> [UInt8] {
      let ctx = try XCTUnwrap(CGContext.bitmap(width: 160, height: 200))
      ctx.translateBy(x: 0, y: 200)
      ctx.scaleBy(x: 1, y: -1)
      ctx.setFillColor(.black)
      body(ctx)
      return try XCTUnwrap(ctx.makeImage()).pixels
    }
    let whole = try draw { CTFrameDraw(frame, $0) }
    let byLine = try draw { ctx in
      let lines = CTFrameGetLines(frame)
      var origins = [CGPoint](repeating: .zero, count: CFArrayGetCount(lines))
      CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
      for i in 0..<CFArrayGetCount(lines) {
        let line = unsafeBitCast(CFArrayGetValueAtIndex(lines, i), to: CTLine.self)
        ctx.textPosition = origins[i]
        CTLineDraw(line, ctx)
      }
    }
    XCTAssertGreaterThan(whole.enumerated().filter { $0.offset % 4 == 3 && $0.element > 128 }.count, 200)
    let differing = zip(whole, byLine).filter { abs(Int($0) - Int($1)) > 2 }.count
    XCTAssertEqual(differing, 0)
  }
}
