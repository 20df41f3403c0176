import CCairo
import CHarfBuzz
import CPango
import Foundation

/// A font of Core Text: a name and a size in points. Pango loads it
/// (fontconfig finds the file, and falls back on another family when the
/// name is not installed); its metrics, glyphs and outlines are the loaded
/// font's, unhinted, as Core Text's are. Made with `CTFontCreateWithName`,
/// `CTFontCreateWithFontDescriptor` or `CTFontCreateCopyWithAttributes`;
/// accepted by `CATextLayer.font` (whose `fontSize` wins over the font's
/// size, as in Core Animation) and as the font attribute of attributed
/// strings (`kCTFontAttributeName`, `.font`).
public final class CTFont: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The name the font was made with: a family name, a fontconfig-style
  /// name such as "DejaVu Sans Bold", a PostScript name such as
  /// "Helvetica-Bold", or a Pango font description (a family list ended by
  /// a comma and style words: "DejaVu Sans, Bold Italic").
  public let familyName: String
  public let size: CGFloat

  init(familyName: String, size: CGFloat) {
    self.familyName = familyName
    self.size = size
  }

  /// The font Pango chose for a run (a fallback for characters the run's
  /// font lacks, or the run's font scaled): its name is the loaded face's
  /// family and style words ("WenQuanYi Micro Hei, Book"), its glyphs the
  /// run's.
  init(pangoFont: UnsafeMutablePointer<PangoFont>) {
    let described = PangoText.locked { () -> (String, CGFloat) in
      guard let copy = pango_font_describe_with_absolute_size(pangoFont) else {
        return ("Helvetica", 12)
      }
      defer { pango_font_description_free(copy) }
      let size = CGFloat(Double(pango_font_description_get_size(copy)) / PangoText.unit)
      let family = pango_font_description_get_family(copy).map { String(cString: $0) } ?? ""
      pango_font_description_unset_fields(
        copy, PangoFontMask(PANGO_FONT_MASK_FAMILY.rawValue | PANGO_FONT_MASK_SIZE.rawValue))
      let words = pango_font_description_to_string(copy).map { pointer in
        defer { g_free(pointer) }
        return String(cString: pointer)
      }
      return (family + "," + (words.map { $0 == "Normal" ? "" : " " + $0 } ?? ""), size)
    }
    familyName = described.0
    size = described.1
    loaded = PangoFontHandle(font: pangoFont, size: described.1)
  }

  /// Pango's font, loaded when first measured (under Pango's lock, so
  /// that threads measuring one font load it once).
  var pango: PangoFontHandle {
    PangoText.locked {
      if let loaded { return loaded }
      let handle = PangoFontHandle(name: familyName, size: size)
      loaded = handle
      return handle
    }
  }
  private var loaded: PangoFontHandle?

  /// A new `PangoFontDescription` (the caller frees it) of the font named
  /// `name` at `size` points, read as Core Text reads font names: a family,
  /// or a PostScript name whose part after the hyphen is the style.
  package static func pangoDescription(name: String, size: CGFloat) -> OpaquePointer? {
    PangoText.description(name: name, size: size)
  }

  public static func == (a: CTFont, b: CTFont) -> Bool {
    a.familyName == b.familyName && a.size == b.size
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(familyName)
    hasher.combine(size)
  }

  public var description: String { "CTFont(\(familyName), \(size))" }
}

/// A glyph index in a font.
public typealias CGGlyph = UInt16
/// A UTF-16 code unit.
public typealias UniChar = UInt16
/// Core Foundation's index and count type.
public typealias CFIndex = Int

/// Which way glyphs are set.
public enum CTFontOrientation: UInt32, Sendable {
  case `default` = 0
  case horizontal = 1
  case vertical = 2
}

/// A font of `name` at `size` points; a `size` of 0 means 12, as in Core
/// Text. The matrix is ignored.
public func CTFontCreateWithName(
  _ name: String, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
  CTFont(familyName: name, size: size > 0 ? size : 12)
}

/// The font's size in points.
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.size }

/// The font's family name: its name without the style ("Helvetica" for
/// "Helvetica-Bold"), as given, whether or not that family is installed
/// (fontconfig draws a missing family with its closest match).
public func CTFontCopyFamilyName(_ font: CTFont) -> String {
  font.pango.familyName ?? font.familyName
}

/// The name the font was made with (Core Text: its PostScript name).
public func CTFontCopyPostScriptName(_ font: CTFont) -> String { font.familyName }

/// The name the font was made with (Core Text: its full name).
public func CTFontCopyFullName(_ font: CTFont) -> String { font.familyName }

/// A copy of `font` at `size` points (0: the same size); the matrix and
/// the descriptor's attributes are ignored.
public func CTFontCreateCopyWithAttributes(
  _ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
  _ attributes: CTFontDescriptor?
) -> CTFont {
  CTFont(familyName: font.familyName, size: size > 0 ? size : font.size)
}

/// The distance from the baseline to the top of the font's line, in points.
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { font.pango.lineMetrics.ascent }

/// The distance from the baseline down to the bottom of the font's line,
/// in points (positive).
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { font.pango.lineMetrics.descent }

/// The space the font puts between lines (its line gap), in points.
public func CTFontGetLeading(_ font: CTFont) -> CGFloat {
  let m = font.pango.lineMetrics
  return max(0, m.height - m.ascent - m.descent)
}

private func metric(_ font: CTFont, _ tag: hb_ot_metrics_tag_t) -> CGFloat {
  font.pango.withHarfBuzz(CGFloat(0)) { hb, _, perY in
    var position: hb_position_t = 0
    hb_ot_metrics_get_position_with_fallback(hb, tag, &position)
    return CGFloat(Double(position) * perY)
  }
}

/// The height of capital letters above the baseline, in points.
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat {
  metric(font, HB_OT_METRICS_TAG_CAP_HEIGHT)
}

/// The height of lowercase letters (the x) above the baseline, in points.
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat {
  metric(font, HB_OT_METRICS_TAG_X_HEIGHT)
}

/// Where the underline goes (negative: below the baseline), in points.
public func CTFontGetUnderlinePosition(_ font: CTFont) -> CGFloat {
  metric(font, HB_OT_METRICS_TAG_UNDERLINE_OFFSET)
}

/// How thick the underline is, in points.
public func CTFontGetUnderlineThickness(_ font: CTFont) -> CGFloat {
  metric(font, HB_OT_METRICS_TAG_UNDERLINE_SIZE)
}

/// The font's design units per em (1000 or 2048, usually).
public func CTFontGetUnitsPerEm(_ font: CTFont) -> UInt32 {
  font.pango.withHarfBuzz(UInt32(0)) { hb, _, _ in hb_face_get_upem(hb_font_get_face(hb)) }
}

/// The box that holds every glyph of the font (the `head` table's), in
/// points, y up from the baseline.
public func CTFontGetBoundingBox(_ font: CTFont) -> CGRect {
  font.pango.withHarfBuzz(CGRect.zero) { hb, _, _ in
    let face = hb_font_get_face(hb)
    let upem = Double(hb_face_get_upem(face))
    guard upem > 0, let blob = hb_face_reference_table(face, 0x6865_6164) else { return .zero }
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(blob, &length), length >= 44 else { return .zero }
    let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self)
    func int16(_ at: Int) -> Double {
      Double(Int16(bitPattern: UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])))
    }
    let scale = Double(font.size) / upem
    let xMin = int16(36) * scale
    let yMin = int16(38) * scale
    let xMax = int16(40) * scale
    let yMax = int16(42) * scale
    return CGRect(x: xMin, y: yMin, width: xMax - xMin, height: yMax - yMin)
  }
}

/// Looks up the glyphs of `count` UTF-16 characters in the font (no
/// shaping: one glyph per character, 0 for a character the font lacks and
/// for the second half of a surrogate pair). Returns whether every
/// character has a glyph.
@discardableResult
public func CTFontGetGlyphsForCharacters(
  _ font: CTFont, _ characters: UnsafePointer<UniChar>, _ glyphs: UnsafeMutablePointer<CGGlyph>,
  _ count: CFIndex
) -> Bool {
  guard count > 0 else { return true }
  return font.pango.withHarfBuzz(false) { hb, _, _ in
    var all = true
    var i = 0
    while i < count {
      var scalar = UInt32(characters[i])
      var width = 1
      if (0xD800..<0xDC00).contains(scalar), i + 1 < count,
        (0xDC00..<0xE000).contains(UInt32(characters[i + 1]))
      {
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(characters[i + 1]) - 0xDC00)
        width = 2
      }
      var glyph: hb_codepoint_t = 0
      if hb_font_get_nominal_glyph(hb, scalar, &glyph) == 0 || glyph > UInt32(UInt16.max) {
        glyph = 0
        all = false
      }
      glyphs[i] = CGGlyph(glyph)
      if width == 2 { glyphs[i + 1] = 0 }
      i += width
    }
    return all
  }
}

/// The advances of `count` glyphs, in points, written to `advances` when
/// given; returns their sum. Vertical advances are not measured (0).
@discardableResult
public func CTFontGetAdvancesForGlyphs(
  _ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
  _ advances: UnsafeMutablePointer<CGSize>?, _ count: CFIndex
) -> Double {
  guard count > 0 else { return 0 }
  return font.pango.withHarfBuzz(0.0) { hb, perX, _ in
    var total = 0.0
    for i in 0..<count {
      let advance =
        orientation == .vertical
        ? 0 : Double(hb_font_get_glyph_h_advance(hb, UInt32(glyphs[i]))) * perX
      advances?[i] = CGSize(width: advance, height: 0)
      total += advance
    }
    return total
  }
}

/// The ink boxes of `count` glyphs (y up from the baseline at the
/// origin), written to `boundingRects` when given; returns their union.
@discardableResult
public func CTFontGetBoundingRectsForGlyphs(
  _ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
  _ boundingRects: UnsafeMutablePointer<CGRect>?, _ count: CFIndex
) -> CGRect {
  guard count > 0 else { return .null }
  return PangoText.locked {
    var union = CGRect.null
    for i in 0..<count {
      var ink = PangoRectangle()
      if let pangoFont = font.pango.font {
        pango_font_get_glyph_extents(pangoFont, PangoGlyph(glyphs[i]), &ink, nil)
      }
      let unit = PangoText.unit
      let rect = CGRect(
        x: Double(ink.x) / unit, y: -Double(ink.y + ink.height) / unit,
        width: Double(ink.width) / unit, height: Double(ink.height) / unit)
      boundingRects?[i] = rect
      if rect.width > 0 || rect.height > 0 { union = union.union(rect) }
    }
    return union
  }
}

/// Draws `count` glyphs of the font at `positions` (user space; each
/// glyph through the context's text matrix, y up) in the context's fill
/// color, or stroked, as its text drawing mode says.
public func CTFontDrawGlyphs(
  _ font: CTFont, _ glyphs: UnsafePointer<CGGlyph>, _ positions: UnsafePointer<CGPoint>,
  _ count: Int, _ context: CGContext
) {
  guard count > 0, let drawing = context.cairoDrawing else { return }
  let m = context.textMatrix
  drawing { cr, paint in
    PangoText.locked {
      guard let pangoFont = font.pango.font,
        let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(pangoFont))
      else { return }
      cairo_set_scaled_font(cr, scaled)
      for i in 0..<count {
        cairo_save(cr)
        CTLine.enterTextSpace(cr, at: positions[i], m)
        var glyph = cairo_glyph_t(index: UInt(glyphs[i]), x: 0, y: 0)
        CTLine.paint(
          cr, paint, show: { cairo_show_glyphs(cr, &glyph, 1) },
          outline: { cairo_glyph_path(cr, &glyph, 1) })
        cairo_restore(cr)
      }
    }
  }
}

/// The outline of `glyph` as a path, in points, y up from the baseline at
/// the origin (as Core Text gives it), transformed by `matrix`; nil for a
/// glyph the font does not have. An empty glyph (a space) has an empty path.
public func CTFontCreatePathForGlyph(
  _ font: CTFont, _ glyph: CGGlyph, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CGPath? {
  let transform = matrix?.pointee ?? .identity
  return PangoText.locked { () -> CGPath? in
    guard let pangoFont = font.pango.font,
      let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(pangoFont)),
      let surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)
    else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return nil }
    defer { cairo_destroy(cr) }
    cairo_set_scaled_font(cr, scaled)
    var g = cairo_glyph_t(index: UInt(glyph), x: 0, y: 0)
    cairo_glyph_path(cr, &g, 1)
    guard let copied = cairo_copy_path(cr) else { return nil }
    defer { cairo_path_destroy(copied) }
    guard copied.pointee.status == CAIRO_STATUS_SUCCESS,
      let hb = pango_font_get_hb_font(pangoFont),
      UInt32(glyph) < hb_face_get_glyph_count(hb_font_get_face(hb))
    else { return nil }
    let path = CGMutablePath()
    // An empty outline (a space's) has no data at all.
    guard let data = copied.pointee.data, copied.pointee.num_data > 0 else { return path }
    // Cairo's y grows downward; Core Text's glyph space has y up.
    func point(_ p: cairo_path_data_t) -> CGPoint { CGPoint(x: p.point.x, y: -p.point.y) }
    var i = 0
    while i < Int(copied.pointee.num_data) {
      let header = data[i].header
      switch header.type {
      case CAIRO_PATH_MOVE_TO: path.move(to: point(data[i + 1]), transform: transform)
      case CAIRO_PATH_LINE_TO: path.addLine(to: point(data[i + 1]), transform: transform)
      case CAIRO_PATH_CURVE_TO:
        path.addCurve(
          to: point(data[i + 3]), control1: point(data[i + 1]), control2: point(data[i + 2]),
          transform: transform)
      case CAIRO_PATH_CLOSE_PATH: path.closeSubpath()
      default: break
      }
      i += Int(header.length)
    }
    return path
  }
}

// MARK: Font descriptors

/// A font descriptor's attribute: the font's name (`String`).
public let kCTFontNameAttribute = "NSFontNameAttribute"
/// A font descriptor's attribute: the family name (`String`).
public let kCTFontFamilyNameAttribute = "NSFontFamilyAttribute"
/// A font descriptor's attribute: the size in points (a number).
public let kCTFontSizeAttribute = "NSFontSizeAttribute"

/// What describes a font: a name (or family) and a size, as attributes.
public final class CTFontDescriptor: @unchecked Sendable {
  public let attributes: [String: Any]
  init(attributes: [String: Any]) { self.attributes = attributes }
}

/// A descriptor of the font named `name` at `size` points.
public func CTFontDescriptorCreateWithNameAndSize(_ name: String, _ size: CGFloat)
  -> CTFontDescriptor
{
  CTFontDescriptor(attributes: [kCTFontNameAttribute: name, kCTFontSizeAttribute: size])
}

/// A descriptor of the attributes `kCTFontNameAttribute`,
/// `kCTFontFamilyNameAttribute` and `kCTFontSizeAttribute` (others are kept
/// and ignored).
public func CTFontDescriptorCreateWithAttributes(_ attributes: [String: Any]) -> CTFontDescriptor {
  CTFontDescriptor(attributes: attributes)
}

/// The value of one of a descriptor's attributes.
public func CTFontDescriptorCopyAttribute(_ descriptor: CTFontDescriptor, _ attribute: String)
  -> Any?
{
  descriptor.attributes[attribute]
}

/// The font a descriptor describes, at `size` points (0: the descriptor's
/// size, else 12). The matrix is ignored.
public func CTFontCreateWithFontDescriptor(
  _ descriptor: CTFontDescriptor, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
  let name =
    descriptor.attributes[kCTFontNameAttribute] as? String
    ?? descriptor.attributes[kCTFontFamilyNameAttribute] as? String ?? "Helvetica"
  let given = Convert.double(descriptor.attributes[kCTFontSizeAttribute]).map { CGFloat($0) }
  return CTFontCreateWithName(name, size > 0 ? size : given ?? 12, matrix)
}

extension NSAttributedString.Key {
  /// A run's font (`CTFont`), as UIKit's and AppKit's key of the same name
  /// (Core Text's `kCTFontAttributeName` is the same key).
  public static let font = NSAttributedString.Key("NSFont")
  /// A run's color (`CGColor`), as UIKit's and AppKit's key of the same name.
  public static let foregroundColor = NSAttributedString.Key("NSColor")
}
