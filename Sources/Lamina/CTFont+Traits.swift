import CHarfBuzz
import CPango
import Foundation

/// A font's style as Core Text names it (`CTFontGetSymbolicTraits`).
public struct CTFontSymbolicTraits: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let traitItalic = CTFontSymbolicTraits(rawValue: 1 << 0)
  public static let traitBold = CTFontSymbolicTraits(rawValue: 1 << 1)
  public static let traitExpanded = CTFontSymbolicTraits(rawValue: 1 << 5)
  public static let traitCondensed = CTFontSymbolicTraits(rawValue: 1 << 6)
  public static let traitMonoSpace = CTFontSymbolicTraits(rawValue: 1 << 10)
  public static let traitVertical = CTFontSymbolicTraits(rawValue: 1 << 11)
  public static let traitUIOptimized = CTFontSymbolicTraits(rawValue: 1 << 12)
  public static let traitColorGlyphs = CTFontSymbolicTraits(rawValue: 1 << 13)
  public static let traitComposite = CTFontSymbolicTraits(rawValue: 1 << 14)
}

extension PangoFontHandle {
  /// The loaded font's traits: bold from semibold (600) up, italic for an
  /// italic or oblique style, condensed or expanded by its stretch,
  /// monospace as its family says.
  var symbolicTraits: CTFontSymbolicTraits {
    PangoText.locked {
      guard let font, let described = pango_font_describe(font) else { return [] }
      defer { pango_font_description_free(described) }
      var traits: CTFontSymbolicTraits = []
      if pango_font_description_get_weight(described).rawValue >= PANGO_WEIGHT_SEMIBOLD.rawValue {
        traits.insert(.traitBold)
      }
      if pango_font_description_get_style(described) != PANGO_STYLE_NORMAL {
        traits.insert(.traitItalic)
      }
      let stretch = pango_font_description_get_stretch(described).rawValue
      if stretch < PANGO_STRETCH_NORMAL.rawValue { traits.insert(.traitCondensed) }
      if stretch > PANGO_STRETCH_NORMAL.rawValue { traits.insert(.traitExpanded) }
      if let face = pango_font_get_face(font), let family = pango_font_face_get_family(face),
        pango_font_family_is_monospace(family) != 0
      {
        traits.insert(.traitMonoSpace)
      }
      return traits
    }
  }
}

/// The font's style: bold, italic, condensed or expanded, monospace.
public func CTFontGetSymbolicTraits(_ font: CTFont) -> CTFontSymbolicTraits {
  font.pango.symbolicTraits
}

/// The font of the same family with the traits in `symTraitMask` set as
/// `symTraitValue` says (bold, italic, condensed, expanded; others are
/// kept), at `size` points (0: the font's size). Fontconfig picks the
/// family's face, and makes bold or slanted glyphs itself when the family
/// has no such face, so a font is always returned. The matrix is ignored.
public func CTFontCreateCopyWithSymbolicTraits(
  _ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
  _ symTraitValue: CTFontSymbolicTraits, _ symTraitMask: CTFontSymbolicTraits
) -> CTFont? {
  let size = size > 0 ? size : font.size
  let current = CTFontGetSymbolicTraits(font)
  let wanted = current.subtracting(symTraitMask).union(symTraitValue.intersection(symTraitMask))
  let name = PangoText.locked { () -> String? in
    guard let requested = font.pango.description,
      let copy = pango_font_description_copy(requested)
    else { return nil }
    defer { pango_font_description_free(copy) }
    let weight = pango_font_description_get_weight(copy).rawValue
    if wanted.contains(.traitBold), weight < PANGO_WEIGHT_SEMIBOLD.rawValue {
      pango_font_description_set_weight(copy, PANGO_WEIGHT_BOLD)
    } else if !wanted.contains(.traitBold), weight >= PANGO_WEIGHT_SEMIBOLD.rawValue {
      pango_font_description_set_weight(copy, PANGO_WEIGHT_NORMAL)
    }
    let italic = pango_font_description_get_style(copy) != PANGO_STYLE_NORMAL
    if wanted.contains(.traitItalic) != italic {
      pango_font_description_set_style(
        copy, wanted.contains(.traitItalic) ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
    }
    if wanted.contains(.traitCondensed) {
      pango_font_description_set_stretch(copy, PANGO_STRETCH_CONDENSED)
    } else if wanted.contains(.traitExpanded) {
      pango_font_description_set_stretch(copy, PANGO_STRETCH_EXPANDED)
    } else {
      pango_font_description_set_stretch(copy, PANGO_STRETCH_NORMAL)
    }
    pango_font_description_unset_fields(copy, PANGO_FONT_MASK_SIZE)
    guard let family = pango_font_description_get_family(copy) else { return nil }
    let familyName = String(cString: family)
    // The style words alone ("Bold Italic"), after the family and a comma,
    // so that no word of the family is read as a style.
    pango_font_description_unset_fields(copy, PANGO_FONT_MASK_FAMILY)
    guard let words = pango_font_description_to_string(copy) else { return nil }
    defer { g_free(words) }
    let style = String(cString: words)
    return familyName + "," + (style == "Normal" ? "" : " " + style)
  }
  guard let name else { return nil }
  return CTFont(familyName: name, size: size)
}

/// The angle of the font's italic slant, in degrees counterclockwise from
/// upright (negative for the usual right-leaning italic), as the font's
/// tables give it; 0 for an upright font.
public func CTFontGetSlantAngle(_ font: CTFont) -> CGFloat {
  font.pango.withHarfBuzz(CGFloat(0)) { hb, _, _ in
    CGFloat(hb_style_get_value(hb, HB_STYLE_TAG_SLANT_ANGLE))
  }
}
