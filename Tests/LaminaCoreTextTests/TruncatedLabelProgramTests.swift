import Foundation
import Lamina
import LaminaDraw
import LaminaRender
import XCTest

/// An iOS program that sets a label of at most two lines the way table
/// cells do: a typesetter breaks the lines, the last one is truncated to the
/// width with an ellipsis. Rendered at scale 2, each line's ink lands where
/// its image bounds say, inside the label.
final class TruncatedLabelProgramTests: XCTestCase {
  // MARK: The iOS program (Lamina's API only)

  final class LabelLayer: CALayer {
    let font = CTFontCreateWithName("DejaVu Sans" as CFString, 15, nil)
    let text =
      "Core Animation commits the layer tree at the end of the run loop's turn, "
      + "and the render server draws it frame after frame."
    let maximumLines = 2
    let inset: CGFloat = 8
    /// What was drawn: each line's image bounds in the layer (y down).
    var drawnBounds: [CGRect] = []
    var lastLineRange = CFRange()

    override func draw(in ctx: CGContext) {
      ctx.textMatrix = .identity
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      let string = NSAttributedString(
        string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
      let typesetter = CTTypesetterCreateWithAttributedString(string as CFAttributedString)
      let width = Double(bounds.width - 2 * inset)
      let lineHeight = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
      var start = 0
      var baseline = bounds.height - inset - CTFontGetAscent(font)
      drawnBounds = []
      for index in 0..<maximumLines where start < string.length {
        let count = CTTypesetterSuggestLineBreak(typesetter, start, width)
        var line = CTTypesetterCreateLine(typesetter, CFRangeMake(start, count))
        if index == maximumLines - 1, start + count < string.length {
          // The rest of the text on the last line, shortened to fit.
          let rest = CTTypesetterCreateLine(typesetter, CFRangeMake(start, 0))
          let ellipsis = CTLineCreateWithAttributedString(
            NSAttributedString(
              string: "\u{2026}",
              attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font]))
          line = CTLineCreateTruncatedLine(rest, width, .end, ellipsis) ?? line
          lastLineRange = CTLineGetStringRange(line)
        }
        ctx.textPosition = CGPoint(x: inset, y: baseline)
        CTLineDraw(line, ctx)
        let image = CTLineGetImageBounds(line, ctx)
        drawnBounds.append(
          CGRect(
            x: image.minX, y: bounds.height - image.maxY, width: image.width,
            height: image.height))
        start += count
        baseline -= lineHeight
      }
    }
  }

  // MARK: The check

  func testTheLabelsTwoLinesLandWhereTheirBoundsSayAndTheLastIsTruncated() throws {
    LaminaDraw.install()
    let label = LabelLayer()
    label.bounds = CGRect(x: 0, y: 0, width: 220, height: 60)
    label.position = CGPoint(x: 110, y: 30)
    label.contentsScale = 2
    label.setNeedsDisplay()
    let image = try Renderer().render(layer: label, size: label.bounds.size, scale: 2)
    XCTAssertEqual(image.width, 440)
    XCTAssertEqual(label.drawnBounds.count, 2)
    XCTAssertEqual(
      label.lastLineRange.location + label.lastLineRange.length, label.text.utf16.count,
      "the last line stands for all the rest")
    for (index, expected) in label.drawnBounds.enumerated() {
      XCTAssertLessThanOrEqual(expected.maxX, 220 - label.inset + 0.5, "line \(index) fits")
      // The line's rows, at scale 2.
      let top = max(0, Int((expected.minY * 2).rounded(.down)) - 2)
      let bottom = min(120, Int((expected.maxY * 2).rounded(.up)) + 2)
      var alpha = [UInt8](repeating: 0, count: 440 * (bottom - top))
      for y in top..<bottom {
        for x in 0..<440 { alpha[(y - top) * 440 + x] = image.pixel(x, y).a }
      }
      let box = try XCTUnwrap(inkBox(alpha, width: 440), "line \(index) is drawn")
      XCTAssertEqual(Double(box.0), Double(expected.minX * 2), accuracy: 2, "line \(index) left")
      XCTAssertEqual(
        Double(box.2 + 1), Double(expected.maxX * 2), accuracy: 2, "line \(index) right")
      XCTAssertEqual(
        Double(box.1 + top), Double(expected.minY * 2), accuracy: 2, "line \(index) top")
      XCTAssertEqual(
        Double(box.3 + 1 + top), Double(expected.maxY * 2), accuracy: 2, "line \(index) bottom")
    }
    // Nothing below the second line.
    let below = Int((label.drawnBounds[1].maxY * 2).rounded(.up)) + 3
    var stray = 0
    for y in below..<120 {
      for x in 0..<440 where image.pixel(x, y).a > 32 { stray += 1 }
    }
    XCTAssertEqual(stray, 0, "two lines at most")
  }
}
