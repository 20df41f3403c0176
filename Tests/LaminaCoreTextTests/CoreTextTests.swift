import CCairo
import CPango
import Foundation
import Lamina
import LaminaDraw
import XCTest

// Core Text as iOS layer code uses it: the code under test (the fonts,
// lines, framesetters and the layer's draw(in:)) is written with Lamina's
// Core Text calls only; the references are Pango's own metrics and Pango's
// own layout of the same text, drawn by Cairo.

/// Pango's own view of a font: the metrics and layouts the tests compare with.
enum PangoReference {
  static let scale = Double(LAMINA_PANGO_SCALE)

  /// A Pango context with Core Text's font options (no hinting).
  static func context() -> OpaquePointer {
    let map = pango_cairo_font_map_new()!
    let context = pango_font_map_create_context(map)!
    let options = cairo_font_options_create()!
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_context_set_round_glyph_positions(context, 0)
    return context
  }

  static func description(_ family: String, _ size: Double) -> OpaquePointer {
    let description = pango_font_description_new()!
    pango_font_description_set_family(description, family)
    pango_font_description_set_absolute_size(description, size * scale)
    return description
  }

  /// Ascent and descent in points.
  static func metrics(_ family: String, _ size: Double) -> (ascent: Double, descent: Double) {
    let context = context()
    let font = pango_context_load_font(context, description(family, size))!
    let metrics = pango_font_get_metrics(font, nil)!
    defer { pango_font_metrics_unref(metrics) }
    return (
      Double(pango_font_metrics_get_ascent(metrics)) / scale,
      Double(pango_font_metrics_get_descent(metrics)) / scale
    )
  }

  /// The logical width of `text` in points.
  static func width(_ text: String, _ family: String, _ size: Double) -> Double {
    let layout = pango_layout_new(context())!
    pango_layout_set_font_description(layout, description(family, size))
    pango_layout_set_text(layout, text, -1)
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logical)
    return Double(logical.width) / scale
  }

  /// `text` laid out by Pango in `width` points, wrapped at words, black,
  /// drawn with its top left at (x, y) of a transparent image.
  static func paragraph(
    _ text: String, family: String, size: Double, width: Double, at x: Double, _ y: Double,
    spacing: Double = 0, alignment: PangoAlignment = PANGO_ALIGN_LEFT,
    imageWidth: Int, imageHeight: Int
  ) -> [UInt8] {
    let surface = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, Int32(imageWidth), Int32(imageHeight))!
    defer { cairo_surface_destroy(surface) }
    let cr = cairo_create(surface)!
    defer { cairo_destroy(cr) }
    let layout = pango_layout_new(context())!
    pango_layout_set_font_description(layout, description(family, size))
    pango_layout_set_text(layout, text, -1)
    pango_layout_set_width(layout, Int32(width * scale))
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_alignment(layout, alignment)
    pango_layout_set_spacing(layout, Int32(spacing * scale))
    cairo_set_source_rgba(cr, 0, 0, 0, 1)
    cairo_move_to(cr, x, y)
    pango_cairo_show_layout(cr, layout)
    cairo_surface_flush(surface)
    // Alpha of each pixel (the text is black).
    let stride = Int(cairo_image_surface_get_stride(surface))
    let data = cairo_image_surface_get_data(surface)!
    var alpha = [UInt8](repeating: 0, count: imageWidth * imageHeight)
    for row in 0..<imageHeight {
      for column in 0..<imageWidth {
        alpha[row * imageWidth + column] = data[row * stride + column * 4 + 3]
      }
    }
    return alpha
  }
}

/// The box of the pixels with alpha above 64, as (minX, minY, maxX, maxY).
func inkBox(_ alpha: [UInt8], width: Int) -> (Int, Int, Int, Int)? {
  var box: (Int, Int, Int, Int)?
  for (i, a) in alpha.enumerated() where a > 64 {
    let x = i % width
    let y = i / width
    if let b = box {
      box = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
    } else {
      box = (x, y, x, y)
    }
  }
  return box
}

final class CoreTextTests: XCTestCase {
  let family = "DejaVu Sans"

  override func setUp() { LaminaDraw.install() }

  func testFontMetricsAreTheFontsAsPangoReadsThem() {
    let font = CTFontCreateWithName(family as CFString, 20, nil)
    let pango = PangoReference.metrics(family, 20)
    XCTAssertEqual(Double(CTFontGetAscent(font)), pango.ascent, accuracy: 1e-3)
    XCTAssertEqual(Double(CTFontGetDescent(font)), pango.descent, accuracy: 1e-3)
    XCTAssertGreaterThan(CTFontGetAscent(font), 15)
    XCTAssertGreaterThanOrEqual(CTFontGetLeading(font), 0)
    XCTAssertEqual(CTFontGetSize(font), 20)
    XCTAssertEqual(CTFontCopyFamilyName(font), family)
    XCTAssertEqual(CTFontGetUnitsPerEm(font), 2048)
    // The bounding box holds the font's tallest and deepest glyphs.
    let box = CTFontGetBoundingBox(font)
    XCTAssertGreaterThan(box.maxY, CTFontGetCapHeight(font))
    XCTAssertLessThan(box.minY, -CTFontGetDescent(font) / 2)
  }

  /// Cap height and x-height against the outlines of H and x.
  func testCapHeightAndXHeightAreTheTopsOfHAndX() {
    let font = CTFontCreateWithName(family as CFString, 100, nil)
    var characters: [UniChar] = Array("Hx".utf16)
    var glyphs = [CGGlyph](repeating: 0, count: 2)
    XCTAssertTrue(CTFontGetGlyphsForCharacters(font, &characters, &glyphs, 2))
    XCTAssertNotEqual(glyphs[0], 0)
    XCTAssertNotEqual(glyphs[0], glyphs[1])
    let h = CTFontCreatePathForGlyph(font, glyphs[0], nil)!.boundingBox
    let x = CTFontCreatePathForGlyph(font, glyphs[1], nil)!.boundingBox
    XCTAssertEqual(h.minY, 0, accuracy: 0.01, "H sits on the baseline, y up")
    XCTAssertEqual(h.maxY, CTFontGetCapHeight(font), accuracy: 0.5)
    XCTAssertEqual(x.maxY, CTFontGetXHeight(font), accuracy: 1.5)
    XCTAssertLessThan(CTFontGetXHeight(font), CTFontGetCapHeight(font))
    // A matrix moves the outline.
    var shift = CGAffineTransform(translationX: 10, y: 5)
    let moved = CTFontCreatePathForGlyph(font, glyphs[0], &shift)!.boundingBox
    XCTAssertEqual(moved.minX, h.minX + 10, accuracy: 1e-6)
    XCTAssertEqual(moved.minY, h.minY + 5, accuracy: 1e-6)
  }

  func testNamesWithAStyle() {
    let regular = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)
    let bold = CTFontCreateWithName("DejaVu Sans-Bold" as CFString, 20, nil)
    let spaced = CTFontCreateWithName("DejaVu Sans Bold" as CFString, 20, nil)
    XCTAssertEqual(CTFontCopyFamilyName(bold), "DejaVu Sans")
    func width(_ font: CTFont) -> Double {
      CTLineGetTypographicBounds(
        CTLineCreateWithAttributedString(
          NSAttributedString(
            string: "Wide words",
            attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])),
        nil, nil, nil)
    }
    XCTAssertGreaterThan(width(bold), width(regular) + 5, "bold is wider")
    XCTAssertEqual(width(spaced), width(bold), accuracy: 1e-6)
  }

  func testDescriptorsAndCopiesWithASize() {
    let descriptor = CTFontDescriptorCreateWithNameAndSize(family as String, 14)
    let font = CTFontCreateWithFontDescriptor(descriptor, 0, nil)
    XCTAssertEqual(CTFontGetSize(font), 14)
    let bigger = CTFontCreateCopyWithAttributes(font, 28, nil, nil)
    XCTAssertEqual(CTFontGetSize(bigger), 28)
    XCTAssertEqual(CTFontGetAscent(bigger), 2 * CTFontGetAscent(font), accuracy: 1e-3)
    let byFamily = CTFontDescriptorCreateWithAttributes([
      kCTFontFamilyNameAttribute as String: family, kCTFontSizeAttribute as String: 9,
    ])
    XCTAssertEqual(CTFontGetSize(CTFontCreateWithFontDescriptor(byFamily, 0, nil)), 9)
  }

  func testAdvancesAddUpToTheLinesWidth() {
    let font = CTFontCreateWithName(family as CFString, 30, nil)
    var characters: [UniChar] = Array("HHH".utf16)
    var glyphs = [CGGlyph](repeating: 0, count: 3)
    CTFontGetGlyphsForCharacters(font, &characters, &glyphs, 3)
    var advances = [CGSize](repeating: .zero, count: 3)
    let total = CTFontGetAdvancesForGlyphs(font, .horizontal, &glyphs, &advances, 3)
    XCTAssertEqual(Double(advances[0].width) * 3, total, accuracy: 1e-6)
    let line = CTLineCreateWithAttributedString(
      NSAttributedString(
        string: "HHH", attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font]))
    var ascent: CGFloat = 0
    var descent: CGFloat = 0
    var leading: CGFloat = 0
    let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
    XCTAssertEqual(width, total, accuracy: 0.01)
    XCTAssertEqual(width, PangoReference.width("HHH", family, 30), accuracy: 1e-3)
    XCTAssertEqual(ascent, CTFontGetAscent(font), accuracy: 0.01)
    XCTAssertEqual(descent, CTFontGetDescent(font), accuracy: 0.01)
    XCTAssertEqual(leading, CTFontGetLeading(font), accuracy: 0.01)
    // One run of three glyphs, at the advances.
    let runs = CTLineGetGlyphRuns(line)
    XCTAssertEqual(runs.count, 1)
    XCTAssertEqual(CTRunGetGlyphCount(runs[0]), 3)
    var positions = [CGPoint](repeating: .zero, count: 3)
    CTRunGetPositions(runs[0], CFRangeMake(0, 0), &positions)
    XCTAssertEqual(positions[2].x, advances[0].width * 2, accuracy: 0.01)
    var runGlyphs = [CGGlyph](repeating: 0, count: 3)
    CTRunGetGlyphs(runs[0], CFRangeMake(0, 0), &runGlyphs)
    XCTAssertEqual(runGlyphs, glyphs)
    XCTAssertEqual(CTRunGetStringRange(runs[0]), CFRangeMake(0, 3))
    XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(0, 3))
    XCTAssertTrue(
      CTRunGetAttributes(runs[0])[NSAttributedString.Key(kCTFontAttributeName as String)] is CTFont)
  }

  func testRunsSplitWhereFontsChange() {
    let small = CTFontCreateWithName(family as CFString, 10, nil)
    let large = CTFontCreateWithName(family as CFString, 30, nil)
    let key = NSAttributedString.Key(kCTFontAttributeName as String)
    let text = NSMutableAttributedString(string: "ab", attributes: [key: small])
    text.append(NSAttributedString(string: "cd", attributes: [key: large]))
    let line = CTLineCreateWithAttributedString(text)
    let runs = CTLineGetGlyphRuns(line)
    XCTAssertEqual(runs.map { CTRunGetStringRange($0) }, [CFRangeMake(0, 2), CFRangeMake(2, 2)])
    var ascent: CGFloat = 0
    _ = CTLineGetTypographicBounds(line, &ascent, nil, nil)
    XCTAssertEqual(ascent, CTFontGetAscent(large), accuracy: 0.01, "the largest font's")
  }

  func testRangesCountUTF16AcrossSurrogatePairs() {
    let key = NSAttributedString.Key(kCTFontAttributeName as String)
    let small = CTFontCreateWithName(family as CFString, 10, nil)
    let large = CTFontCreateWithName(family as CFString, 20, nil)
    // "a" and U+1D400 (two UTF-16 units), then "ébc" in another font.
    let text = NSMutableAttributedString(string: "a\u{1D400}", attributes: [key: small])
    text.append(NSAttributedString(string: "\u{E9}bc", attributes: [key: large]))
    XCTAssertEqual(text.length, 6)
    let line = CTLineCreateWithAttributedString(text)
    XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(0, 6))
    let ranges = CTLineGetGlyphRuns(line).map { CTRunGetStringRange($0) }
    XCTAssertEqual(ranges.last, CFRangeMake(3, 3), "the second font's run")
    XCTAssertEqual(ranges.reduce(0) { $0 + $1.length }, 6)
    var characters = Array(text.string.utf16)
    var glyphs = [CGGlyph](repeating: 7, count: characters.count)
    CTFontGetGlyphsForCharacters(small, &characters, &glyphs, characters.count)
    XCTAssertEqual(glyphs[2], 0, "the second half of a pair has no glyph")
    XCTAssertNotEqual(glyphs[0], 0)
  }

  /// An iOS layer that draws one line at a text position, in a flipped context.
  final class LineLayer: CALayer {
    var line: CTLine?
    override func draw(in ctx: CGContext) {
      guard let line else { return }
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      ctx.textMatrix = .identity
      ctx.textPosition = CGPoint(x: 12, y: 20)
      CTLineDraw(line, ctx)
    }
  }

  func testALineDrawsWhereItsImageBoundsSay() throws {
    let font = CTFontCreateWithName(family as CFString, 24, nil)
    let line = CTLineCreateWithAttributedString(
      NSAttributedString(
        string: "Hxg",
        attributes: [
          NSAttributedString.Key(kCTFontAttributeName as String): font,
          NSAttributedString.Key(kCTForegroundColorAttributeName as String): CGColor(
            red: 0, green: 0, blue: 1, alpha: 1),
        ]))
    let layer = LineLayer()
    layer.line = line
    layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let image = try XCTUnwrap(layer.contents as? CGImage)
    let pixels = image.pixels
    let alpha = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
    let box = try XCTUnwrap(inkBox(alpha, width: 100))
    // Image bounds in text space (y up), at the text position; the layer
    // flips it: y = 60 - text y.
    let bounds = CTLineGetImageBounds(line, nil).offsetBy(dx: 12, dy: 20)
    XCTAssertEqual(Double(box.0), Double(bounds.minX), accuracy: 1)
    XCTAssertEqual(Double(box.2 + 1), Double(bounds.maxX), accuracy: 1)
    XCTAssertEqual(Double(box.1), Double(60 - bounds.maxY), accuracy: 1)
    XCTAssertEqual(Double(box.3 + 1), Double(60 - bounds.minY), accuracy: 1)
    // The run's color.
    let i = (box.1 + box.3) / 2 * 100 + (box.0 + box.2) / 2
    var blue = false
    for j in (i - 200)...(i + 200) where pixels[j * 4 + 3] > 200 {
      blue = blue || (pixels[j * 4 + 2] > 200 && pixels[j * 4] < 40)
    }
    XCTAssertTrue(blue, "drawn in the run's color")
  }

  static let paragraph =
    "Core Animation commits layer trees; Core Text sets the words of a paragraph "
    + "in a frame, line after line, where the framesetter breaks them."

  /// The layer of an iOS program that lays out a paragraph with a framesetter.
  final class ParagraphLayer: CALayer {
    var text: NSAttributedString?
    var frameRect = CGRect.zero
    var lineCount = 0
    override func draw(in ctx: CGContext) {
      guard let text else { return }
      ctx.textMatrix = .identity
      ctx.translateBy(x: 0, y: bounds.height)
      ctx.scaleBy(x: 1, y: -1)
      let framesetter = CTFramesetterCreateWithAttributedString(text as CFAttributedString)
      let path = CGPath(rect: frameRect, transform: nil)
      let frame = CTFramesetterCreateFrame(framesetter, CFRangeMake(0, 0), path, nil)
      lineCount = CTFrameGetLines(frame).count
      CTFrameDraw(frame, ctx)
    }
  }

  func paragraphStyle(_ alignment: CTTextAlignment, spacing: CGFloat) -> CTParagraphStyle {
    var alignment = alignment
    var spacing = spacing
    return withUnsafeBytes(of: &alignment) { a in
      withUnsafeBytes(of: &spacing) { s in
        let settings = [
          CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: a.baseAddress!),
          CTParagraphStyleSetting(
            spec: .lineSpacingAdjustment, valueSize: MemoryLayout<CGFloat>.size,
            value: s.baseAddress!),
        ]
        return CTParagraphStyleCreate(settings, settings.count)
      }
    }
  }

  func drawParagraph(alignment: CTTextAlignment, spacing: CGFloat) throws -> ([UInt8], Int) {
    let font = CTFontCreateWithName(family as CFString, 16, nil)
    let text = NSAttributedString(
      string: Self.paragraph,
      attributes: [
        NSAttributedString.Key(kCTFontAttributeName as String): font,
        NSAttributedString.Key(kCTParagraphStyleAttributeName as String): paragraphStyle(
          alignment, spacing: spacing),
      ])
    let layer = ParagraphLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 240, height: 200)
    layer.text = text
    // The frame in the flipped (y up) space: 10 from the left, 15 from the top.
    layer.frameRect = CGRect(x: 10, y: 20, width: 220, height: 165)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let image = try XCTUnwrap(layer.contents as? CGImage)
    XCTAssertEqual(image.width, 240)
    let alpha = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    return (alpha, layer.lineCount)
  }

  func assertMatchesPango(
    _ drawn: [UInt8], alignment: PangoAlignment, spacing: Double, line: UInt = #line
  ) throws {
    let reference = PangoReference.paragraph(
      Self.paragraph, family: family, size: 16, width: 220, at: 10, 15, spacing: spacing,
      alignment: alignment, imageWidth: 240, imageHeight: 200)
    let a = try XCTUnwrap(inkBox(drawn, width: 240), line: line)
    let b = try XCTUnwrap(inkBox(reference, width: 240), line: line)
    XCTAssertEqual(Double(a.0), Double(b.0), accuracy: 1, "left", line: line)
    XCTAssertEqual(Double(a.1), Double(b.1), accuracy: 1, "top", line: line)
    XCTAssertEqual(Double(a.2), Double(b.2), accuracy: 1, "right", line: line)
    XCTAssertEqual(Double(a.3), Double(b.3), accuracy: 1, "bottom", line: line)
    // Pixel for pixel: the glyphs are where Pango puts them.
    var differing = 0
    for i in drawn.indices where abs(Int(drawn[i]) - Int(reference[i])) > 64 { differing += 1 }
    XCTAssertLessThan(differing, 20, "pixels that differ by more than 1/4", line: line)
  }

  /// The program of issue 30: a framesetter frame drawn in a layer's
  /// draw(in:) lands within a pixel of Pango's own layout of the paragraph.
  func testAFramesetterParagraphDrawsWherePangoLaysItOut() throws {
    let (drawn, lines) = try drawParagraph(alignment: .left, spacing: 0)
    XCTAssertGreaterThan(lines, 2, "the paragraph wraps")
    try assertMatchesPango(drawn, alignment: PANGO_ALIGN_LEFT, spacing: 0)
  }

  func testCenteredParagraphWithLineSpacing() throws {
    let (drawn, _) = try drawParagraph(alignment: .center, spacing: 6)
    try assertMatchesPango(drawn, alignment: PANGO_ALIGN_CENTER, spacing: 6)
  }

  func testFrameLinesOriginsAndSuggestedSize() {
    let font = CTFontCreateWithName(family as CFString, 16, nil)
    let text = NSAttributedString(
      string: Self.paragraph,
      attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
    let framesetter = CTFramesetterCreateWithAttributedString(text)
    var fit = CFRange()
    let size = CTFramesetterSuggestFrameSizeWithConstraints(
      framesetter, CFRangeMake(0, 0), nil,
      CGSize(width: 220, height: CGFloat.greatestFiniteMagnitude),
      &fit)
    XCTAssertEqual(fit, CFRangeMake(0, text.length))
    XCTAssertLessThanOrEqual(size.width, 220)
    let frame = CTFramesetterCreateFrame(
      framesetter, CFRangeMake(0, 0),
      CGPath(rect: CGRect(origin: .zero, size: size), transform: nil), nil)
    let lines = CTFrameGetLines(frame)
    XCTAssertGreaterThan(lines.count, 2)
    XCTAssertEqual(
      CTFrameGetVisibleStringRange(frame), CFRangeMake(0, text.length), "all of it fits")
    var origins = [CGPoint](repeating: .zero, count: lines.count)
    CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
    // The first baseline one ascent below the top (y up); each next one a line lower.
    XCTAssertEqual(origins[0].y, size.height - CTFontGetAscent(font), accuracy: 1)
    let step = origins[0].y - origins[1].y
    XCTAssertEqual(step, CTFontGetAscent(font) + CTFontGetDescent(font), accuracy: 1)
    // The lines cover the string, in order.
    var next = 0
    for line in lines {
      let range = CTLineGetStringRange(line)
      XCTAssertEqual(range.location, next)
      next = range.location + range.length
    }
    XCTAssertEqual(next, text.length)
    // A frame one line high shows one line.
    let short = CTFramesetterCreateFrame(
      framesetter, CFRangeMake(0, 0),
      CGPath(rect: CGRect(x: 0, y: 0, width: 220, height: 22), transform: nil),
      nil)
    XCTAssertEqual(CTFrameGetLines(short).count, 1)
    XCTAssertLessThan(CTFrameGetVisibleStringRange(short).length, text.length)
  }
}
