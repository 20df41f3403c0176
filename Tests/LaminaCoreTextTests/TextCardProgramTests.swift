import CPango
import Foundation
import Lamina
import LaminaDraw
import LaminaRender
import XCTest

/// The program of issue 30, written as iOS code is: a layer that measures
/// a title with `CTFontGetAscent` and `CTLineGetTypographicBounds`, centers
/// it, and sets a paragraph below it with a framesetter, all in
/// `draw(in:)`; rendered by the renderer, it lands within a pixel of
/// Pango's own layout of the same text.
final class TextCardProgramTests: XCTestCase {
  // MARK: The iOS program (Lamina's API only)

  final class TextCardLayer: CALayer {
    let titleFont = CTFontCreateWithName("DejaVu Sans" as CFString, 22, nil)
    let bodyFont = CTFontCreateWithName("DejaVu Sans" as CFString, 14, nil)
    let title = "Implicit transactions"
    let body =
      "Any change to a layer opens the implicit transaction; a begin and commit inside it "
      + "is nested and commits nothing until the run loop commits."

    override func draw(in ctx: CGContext) {
      // Core Text's space: y up from the bottom of the layer.
      ctx.textMatrix = .identity
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)

      let titleLine = CTLineCreateWithAttributedString(
        NSAttributedString(
          string: title,
          attributes: [NSAttributedString.Key(kCTFontAttributeName as String): titleFont]))
      var ascent: CGFloat = 0
      var descent: CGFloat = 0
      var leading: CGFloat = 0
      let width = CGFloat(CTLineGetTypographicBounds(titleLine, &ascent, &descent, &leading))
      let top: CGFloat = 10
      ctx.textPosition = CGPoint(
        x: (bounds.width - width) / 2, y: bounds.height - top - CTFontGetAscent(titleFont))
      CTLineDraw(titleLine, ctx)

      let bodyTop = top + ascent + descent + 8
      let framesetter = CTFramesetterCreateWithAttributedString(
        NSAttributedString(
          string: body,
          attributes: [NSAttributedString.Key(kCTFontAttributeName as String): bodyFont])
          as CFAttributedString)
      let box = CGRect(x: 12, y: 8, width: bounds.width - 24, height: bounds.height - bodyTop - 8)
      let frame = CTFramesetterCreateFrame(
        framesetter, CFRangeMake(0, 0), CGPath(rect: box, transform: nil), nil)
      CTFrameDraw(frame, ctx)
    }
  }

  // MARK: The check

  func testTheCardRendersWherePangoLaysItOut() throws {
    LaminaDraw.install()
    let card = TextCardLayer()
    card.bounds = CGRect(x: 0, y: 0, width: 300, height: 160)
    card.position = CGPoint(x: 150, y: 80)
    card.setNeedsDisplay()
    let image = try Renderer().render(layer: card, size: card.bounds.size)
    var drawn = [UInt8](repeating: 0, count: 300 * 160)
    for y in 0..<160 {
      for x in 0..<300 { drawn[y * 300 + x] = image.pixel(x, y).a }
    }

    // Pango's own layout: the title centered, its top 10 from the top; the
    // paragraph 12 from the left, wrapped at 276, below the title's line.
    let metrics = PangoReference.metrics("DejaVu Sans", 22)
    let titleWidth = PangoReference.width(card.title, "DejaVu Sans", 22)
    let title = PangoReference.paragraph(
      card.title, family: "DejaVu Sans", size: 22, width: 1000, at: (300 - titleWidth) / 2, 10,
      imageWidth: 300, imageHeight: 160)
    let body = PangoReference.paragraph(
      card.body, family: "DejaVu Sans", size: 14, width: 276, at: 12,
      10 + metrics.ascent + metrics.descent + 8, imageWidth: 300, imageHeight: 160)
    let reference = zip(title, body).map { max($0, $1) }

    let a = try XCTUnwrap(inkBox(drawn, width: 300))
    let b = try XCTUnwrap(inkBox(reference, width: 300))
    XCTAssertEqual(Double(a.0), Double(b.0), accuracy: 1, "left")
    XCTAssertEqual(Double(a.1), Double(b.1), accuracy: 1, "top")
    XCTAssertEqual(Double(a.2), Double(b.2), accuracy: 1, "right")
    XCTAssertEqual(Double(a.3), Double(b.3), accuracy: 1, "bottom")
    // The title's rows and the paragraph's, each within a pixel.
    let titleBox = try XCTUnwrap(inkBox(Array(drawn[0..<(300 * 40)]), width: 300))
    let titleReference = try XCTUnwrap(inkBox(Array(title[0..<(300 * 40)]), width: 300))
    XCTAssertEqual(Double(titleBox.0), Double(titleReference.0), accuracy: 1, "title left")
    XCTAssertEqual(Double(titleBox.1), Double(titleReference.1), accuracy: 1, "title top")
    XCTAssertEqual(Double(titleBox.2), Double(titleReference.2), accuracy: 1, "title right")
    var differing = 0
    for i in drawn.indices where abs(Int(drawn[i]) - Int(reference[i])) > 64 { differing += 1 }
    XCTAssertLessThan(differing, 30, "pixels that differ by more than 1/4")
  }
}
