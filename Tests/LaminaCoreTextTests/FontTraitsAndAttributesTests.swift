import Foundation
import Lamina
import LaminaDraw
import XCTest

/// Font traits, the drawing attributes (underline color, background,
/// baseline offset, superscript, ligatures, outlines) and drawing one run,
/// written as iOS code would be.
final class FontTraitsAndAttributesTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  let key = NSAttributedString.Key.self
  func named(_ name: CFString) -> NSAttributedString.Key { NSAttributedString.Key(name as String) }

  func testTraitsOfFontsAndTheirCopies() throws {
    let regular = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)
    XCTAssertEqual(CTFontGetSymbolicTraits(regular), [])
    XCTAssertEqual(CTFontGetSlantAngle(regular), 0)
    let bold = try XCTUnwrap(
      CTFontCreateCopyWithSymbolicTraits(regular, 0, nil, .traitBold, .traitBold))
    XCTAssertEqual(CTFontGetSymbolicTraits(bold), .traitBold)
    XCTAssertEqual(CTFontGetSize(bold), 20)
    XCTAssertEqual(CTFontCopyFamilyName(bold), "DejaVu Sans")
    // DejaVu Sans Bold's "m" is wider than Book's.
    func advance(_ font: CTFont) -> Double {
      var units: [UniChar] = [0x6D]
      var glyphs: [CGGlyph] = [0]
      CTFontGetGlyphsForCharacters(font, &units, &glyphs, 1)
      return CTFontGetAdvancesForGlyphs(font, .horizontal, &glyphs, nil, 1)
    }
    XCTAssertGreaterThan(advance(bold), advance(regular) + 1)
    let boldItalic = try XCTUnwrap(
      CTFontCreateCopyWithSymbolicTraits(bold, 30, nil, .traitItalic, .traitItalic))
    XCTAssertEqual(CTFontGetSymbolicTraits(boldItalic), [.traitBold, .traitItalic])
    XCTAssertEqual(CTFontGetSize(boldItalic), 30)
    // DejaVu Sans Oblique's post table: an italic angle of -11 degrees.
    XCTAssertEqual(Double(CTFontGetSlantAngle(boldItalic)), -11, accuracy: 0.5)
    let italicOnly = try XCTUnwrap(
      CTFontCreateCopyWithSymbolicTraits(boldItalic, 0, nil, [], .traitBold))
    XCTAssertEqual(CTFontGetSymbolicTraits(italicOnly), .traitItalic)
    let fromName = CTFontCreateWithName("DejaVu Sans-BoldOblique" as CFString, 12, nil)
    XCTAssertEqual(CTFontGetSymbolicTraits(fromName), [.traitBold, .traitItalic])
    let mono = CTFontCreateWithName("DejaVu Sans Mono" as CFString, 12, nil)
    XCTAssertEqual(CTFontGetSymbolicTraits(mono), .traitMonoSpace)
  }

  func line(_ text: String, _ attributes: [NSAttributedString.Key: Any]) -> CTLine {
    var all = attributes
    if all[named(kCTFontAttributeName)] == nil {
      all[named(kCTFontAttributeName)] = CTFontCreateWithName("DejaVu Sans" as CFString, 40, nil)
    }
    return CTLineCreateWithAttributedString(NSAttributedString(string: text, attributes: all))
  }

  func testBaselineOffsetAndSuperscriptRaiseTheGlyphs() {
    let plain = CTLineGetImageBounds(line("x", [:]), nil)
    let raised = CTLineGetImageBounds(line("x", [named(kCTBaselineOffsetAttributeName): 6]), nil)
    XCTAssertEqual(raised.minY - plain.minY, 6, accuracy: 0.05)
    XCTAssertEqual(raised.height, plain.height, accuracy: 0.05)
    let runs = CTLineGetGlyphRuns(line("x", [named(kCTBaselineOffsetAttributeName): 6]))
    XCTAssertEqual(Double(runs[0].positions[0].y), 6, accuracy: 0.05, "the run's positions too")
    let superscript = CTLineGetImageBounds(line("x", [named(kCTSuperscriptAttributeName): 1]), nil)
    XCTAssertGreaterThan(superscript.minY, plain.minY + 3, "raised")
    XCTAssertLessThan(superscript.height, plain.height * 0.9, "smaller")
    let subscriptBox = CTLineGetImageBounds(
      line("x", [named(kCTSuperscriptAttributeName): -1]), nil)
    XCTAssertLessThan(subscriptBox.minY, plain.minY - 3, "lowered")
  }

  func testLigaturesCanBeTurnedOff() {
    XCTAssertEqual(CTLineGetGlyphCount(line("fi", [:])), 1, "DejaVu Sans ligates fi")
    XCTAssertEqual(CTLineGetGlyphCount(line("fi", [named(kCTLigatureAttributeName): 0])), 2)
    XCTAssertEqual(CTLineGetGlyphCount(line("fi", [named(kCTLigatureAttributeName): 1])), 1)
  }

  /// An iOS layer that draws a line, or one run of it, at a text position.
  final class LineLayer: CALayer {
    var line: CTLine?
    var run: (index: Int, range: CFRange)?
    override func draw(in ctx: CGContext) {
      guard let line else { return }
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      ctx.textMatrix = .identity
      ctx.textPosition = CGPoint(x: 10, y: 30)
      if let run {
        CTRunDraw(CTLineGetGlyphRuns(line)[run.index], ctx, run.range)
      } else {
        CTLineDraw(line, ctx)
      }
    }
  }

  /// The pixels `layer` draws at 200×100 points.
  func drawn(_ layer: CALayer) throws -> [UInt8] {
    layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    return try XCTUnwrap(layer.contents as? CGImage).pixels
  }

  func pixels(_ line: CTLine, run: (Int, CFRange)? = nil) throws -> [UInt8] {
    let layer = LineLayer()
    layer.line = line
    layer.run = run
    return try drawn(layer)
  }

  /// The alpha of the pixels whose color is mostly `channel` (0 red, 1
  /// green, 2 blue).
  func mask(_ pixels: [UInt8], _ channel: Int) -> [UInt8] {
    (0..<(pixels.count / 4)).map { i in
      let p = Array(pixels[(i * 4)..<(i * 4 + 4)])
      let others = (0..<3).filter { $0 != channel }.map { Int(p[$0]) }
      return Int(p[channel]) > others.max()! + 80 ? p[3] : 0
    }
  }

  let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
  let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
  let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

  func testUnderlineColorAndBackgroundColor() throws {
    let drawn = try pixels(
      line(
        "Hxg",
        [
          named(kCTUnderlineStyleAttributeName): CTUnderlineStyle.single.rawValue,
          named(kCTUnderlineColorAttributeName): red,
          named(kCTBackgroundColorAttributeName): green,
        ]))
    // The underline: red, a bar below the baseline (y 30 up: row 70 down).
    let underline = try XCTUnwrap(inkBox(mask(drawn, 0), width: 200))
    XCTAssertGreaterThan(underline.1, 70, "below the baseline")
    XCTAssertGreaterThan(underline.2 - underline.0, 60, "the line's width")
    XCTAssertLessThan(underline.3 - underline.1, 5, "a bar")
    // The background: green, the line's logical box behind the glyphs
    // (black), from its ascent to its descent.
    let background = try XCTUnwrap(inkBox(mask(drawn, 1), width: 200))
    let l = line("Hxg", [:])
    var ascent: CGFloat = 0
    var descent: CGFloat = 0
    let width = CTLineGetTypographicBounds(l, &ascent, &descent, nil)
    XCTAssertEqual(Double(background.0), 10, accuracy: 1)
    XCTAssertEqual(Double(background.2 + 1), 10 + width, accuracy: 1)
    XCTAssertEqual(Double(background.1), Double(70 - ascent), accuracy: 1)
    XCTAssertEqual(Double(background.3 + 1), Double(70 + descent), accuracy: 1)
  }

  func testAStrokeWidthOutlinesTheGlyphs() throws {
    let font = CTFontCreateWithName("DejaVu Sans" as CFString, 80, nil)
    // An "I": a stem about 10 points wide; its middle column is inside.
    func stemMiddle(_ pixels: [UInt8], _ channel: Int) -> (inside: UInt8, edge: UInt8) {
      let m = mask(pixels, channel)
      let box = inkBox(m, width: 200) ?? (0, 0, 0, 0)
      let row = (box.1 + box.3) / 2
      let middle = (box.0 + box.2) / 2
      return (m[row * 200 + middle], max(m[row * 200 + box.0], m[row * 200 + box.0 + 1]))
    }
    let filled = try pixels(
      line("I", [named(kCTFontAttributeName): font, named(kCTForegroundColorAttributeName): red]))
    XCTAssertGreaterThan(stemMiddle(filled, 0).inside, 200, "filled")
    // Positive: outlined only, in the stroke color.
    let outlined = try pixels(
      line(
        "I",
        [
          named(kCTFontAttributeName): font, named(kCTForegroundColorAttributeName): red,
          named(kCTStrokeWidthAttributeName): 3, named(kCTStrokeColorAttributeName): blue,
        ]))
    XCTAssertLessThan(stemMiddle(outlined, 2).inside, 30, "hollow")
    XCTAssertGreaterThan(stemMiddle(outlined, 2).edge, 150, "its outline drawn")
    XCTAssertNil(inkBox(mask(outlined, 0), width: 200), "no fill")
    // Negative: filled and outlined.
    let both = try pixels(
      line(
        "I",
        [
          named(kCTFontAttributeName): font, named(kCTForegroundColorAttributeName): red,
          named(kCTStrokeWidthAttributeName): -3, named(kCTStrokeColorAttributeName): blue,
        ]))
    XCTAssertGreaterThan(stemMiddle(both, 0).inside, 200, "filled red")
    XCTAssertGreaterThan(stemMiddle(both, 2).edge, 150, "outlined blue")
  }

  /// An iOS layer that draws an "I" with a text drawing mode, as a line
  /// (colored by its attributes) and as glyphs (in the fill color).
  final class ModeLayer: CALayer {
    var mode = CGTextDrawingMode.fill
    var glyphs = false
    override func draw(in ctx: CGContext) {
      let font = CTFontCreateWithName("DejaVu Sans" as CFString, 80, nil)
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      ctx.textMatrix = .identity
      ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
      ctx.setStrokeColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
      ctx.setLineWidth(3)
      ctx.setTextDrawingMode(mode)
      if glyphs {
        var units: [UniChar] = [0x49]
        var glyph: [CGGlyph] = [0]
        CTFontGetGlyphsForCharacters(font, &units, &glyph, 1)
        CTFontDrawGlyphs(font, glyph, [CGPoint(x: 10, y: 30)], 1, ctx)
      } else {
        ctx.textPosition = CGPoint(x: 10, y: 30)
        let attributes: [NSAttributedString.Key: Any] = [
          NSAttributedString.Key(kCTFontAttributeName as String): font,
          NSAttributedString.Key(kCTForegroundColorAttributeName as String): CGColor(
            red: 0, green: 1, blue: 0, alpha: 1),
        ]
        CTLineDraw(
          CTLineCreateWithAttributedString(NSAttributedString(string: "I", attributes: attributes)),
          ctx)
      }
    }
  }

  func testTheTextDrawingModeFillsStrokesOrHidesTheGlyphs() throws {
    func drawn(_ mode: CGTextDrawingMode, glyphs: Bool) throws -> [UInt8] {
      let layer = ModeLayer()
      layer.mode = mode
      layer.glyphs = glyphs
      return try self.drawn(layer)
    }
    /// The alpha of `channel` in the stem's middle and at its left edge.
    func stem(_ pixels: [UInt8], _ channel: Int) -> (inside: UInt8, edge: UInt8) {
      let all = (0..<(pixels.count / 4)).map { pixels[$0 * 4 + 3] }
      guard let box = inkBox(all, width: 200) else { return (0, 0) }
      let m = mask(pixels, channel)
      let row = (box.1 + box.3) / 2
      let edge = (box.0...(box.0 + 2)).map { m[row * 200 + $0] }.max() ?? 0
      return (m[row * 200 + (box.0 + box.2) / 2], edge)
    }
    for glyphs in [false, true] {
      let fill = glyphs ? 0 : 1  // the fill color (red) for glyphs, the run's (green) for lines
      let filled = try drawn(.fill, glyphs: glyphs)
      XCTAssertGreaterThan(stem(filled, fill).inside, 200, "fill, glyphs \(glyphs)")
      XCTAssertNil(inkBox(mask(filled, 2), width: 200), "no stroke, glyphs \(glyphs)")
      let stroked = try drawn(.stroke, glyphs: glyphs)
      XCTAssertLessThan(stem(stroked, 2).inside, 30, "stroke: hollow, glyphs \(glyphs)")
      XCTAssertGreaterThan(stem(stroked, 2).edge, 150, "stroke: outlined, glyphs \(glyphs)")
      XCTAssertNil(inkBox(mask(stroked, fill), width: 200), "stroke: unfilled, glyphs \(glyphs)")
      let both = try drawn(.fillStroke, glyphs: glyphs)
      XCTAssertGreaterThan(stem(both, fill).inside, 200, "fillStroke: filled, glyphs \(glyphs)")
      XCTAssertGreaterThan(stem(both, 2).edge, 150, "fillStroke: outlined, glyphs \(glyphs)")
      let hidden = try drawn(.invisible, glyphs: glyphs)
      XCTAssertTrue(hidden.allSatisfy { $0 == 0 }, "invisible, glyphs \(glyphs)")
    }
  }

  /// A layer drawing "II" whose first "I" takes the context's fill color
  /// (green), though its color attribute says red, and whose second has no
  /// color (black), as a line or as its first run.
  final class FromContextLayer: CALayer {
    var asRun = false
    override func draw(in ctx: CGContext) {
      let font = CTFontCreateWithName("DejaVu Sans" as CFString, 60, nil)
      let fontKey = NSAttributedString.Key(kCTFontAttributeName as String)
      let text = NSMutableAttributedString(
        string: "I",
        attributes: [
          fontKey: font,
          NSAttributedString.Key(kCTForegroundColorAttributeName as String): CGColor(
            red: 1, green: 0, blue: 0, alpha: 1),
          NSAttributedString.Key(kCTForegroundColorFromContextAttributeName as String): true,
        ])
      text.append(NSAttributedString(string: "I", attributes: [fontKey: font]))
      let line = CTLineCreateWithAttributedString(text)
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      ctx.textMatrix = .identity
      ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
      ctx.textPosition = CGPoint(x: 10, y: 30)
      if asRun {
        CTRunDraw(CTLineGetGlyphRuns(line)[0], ctx, CFRangeMake(0, 0))
      } else {
        CTLineDraw(line, ctx)
      }
    }
  }

  func testAColorFromTheContext() throws {
    let pixels = try drawn(FromContextLayer())
    let green = try XCTUnwrap(inkBox(mask(pixels, 1), width: 200))
    XCTAssertNil(inkBox(mask(pixels, 0), width: 200), "not its red attribute")
    // The black "I" after it: opaque pixels that are neither green nor red.
    let black = (0..<(pixels.count / 4)).map { i -> UInt8 in
      pixels[i * 4 + 3] > 200 && pixels[i * 4] < 30 && pixels[i * 4 + 1] < 30 ? 255 : 0
    }
    let second = try XCTUnwrap(inkBox(black, width: 200))
    XCTAssertGreaterThan(second.0, green.2, "the second glyph, black, after the green one")
    let run = FromContextLayer()
    run.asRun = true
    let runPixels = try drawn(run)
    let runGreen = try XCTUnwrap(inkBox(mask(runPixels, 1), width: 200))
    XCTAssertEqual(runGreen.0, green.0, accuracy: 1, "CTRunDraw too")
  }

  func testARunDrawsItsGlyphsWhereTheLineDrawsThem() throws {
    let small = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)
    let large = CTFontCreateWithName("DejaVu Sans" as CFString, 36, nil)
    let text = NSMutableAttributedString(
      string: "AB",
      attributes: [named(kCTFontAttributeName): small, named(kCTForegroundColorAttributeName): red])
    text.append(
      NSAttributedString(
        string: "CD",
        attributes: [
          named(kCTFontAttributeName): large, named(kCTForegroundColorAttributeName): blue,
        ]))
    let line = CTLineCreateWithAttributedString(text)
    let runs = CTLineGetGlyphRuns(line)
    XCTAssertEqual(runs.count, 2)
    let whole = try pixels(line)
    let second = try pixels(line, run: (1, CFRangeMake(0, 0)))
    XCTAssertNil(inkBox(mask(second, 0), width: 200), "the first run is not drawn")
    let drawn = try XCTUnwrap(inkBox(mask(second, 2), width: 200))
    let expected = try XCTUnwrap(inkBox(mask(whole, 2), width: 200))
    XCTAssertEqual(drawn.0, expected.0, accuracy: 1)
    XCTAssertEqual(drawn.1, expected.1, accuracy: 1)
    XCTAssertEqual(drawn.2, expected.2, accuracy: 1)
    XCTAssertEqual(drawn.3, expected.3, accuracy: 1)
    // Its second glyph alone: "D", from its position in the line.
    let d = try XCTUnwrap(
      inkBox(mask(try pixels(line, run: (1, CFRangeMake(1, 1))), 2), width: 200))
    var glyph = runs[1].glyphs[1]
    let rect = CTFontGetBoundingRectsForGlyphs(large, .horizontal, &glyph, nil, 1)
    XCTAssertEqual(Double(d.0), 10 + Double(runs[1].positions[1].x + rect.minX), accuracy: 1)
    XCTAssertEqual(d.2, expected.2, accuracy: 1)
  }
}
