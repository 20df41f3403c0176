import CCairo
import Foundation
import Lamina

/// Consecutive path items of a frame drawn on the CPU by Cairo, in their
/// order, into one bitmap of target pixels (`PlanOptions.cpuPaths`): on a
/// software rasterizer a path's coverage costs the fragment shader several
/// times what Cairo's scanlines cost, and the bitmap is one upload and one
/// textured quad (docs/rendering.md, "Paths on the CPU").
public enum PathRunRasterizer {
  /// One path item: its fill or its stroke, in a premultiplied color,
  /// placed by an affine map from the layer's plane to the bitmap's pixels.
  public struct Part {
    public var style: ShapeStyle
    public var stroke: Bool
    public var color: SIMD4<Float>
    public var transform: CGAffineTransform
    /// A rounded rect (radii of the corners at minX minY, maxX minY, maxX
    /// maxY, minX maxY) that clips the part, placed by its own map.
    public var clip: Clip?
    /// The paint when it is a gradient (`color` is then not drawn): its
    /// color at each pixel, its alpha included.
    public var shader: GradientShader?

    public init(
      style: ShapeStyle, stroke: Bool, color: SIMD4<Float>, transform: CGAffineTransform,
      clip: Clip? = nil, shader: GradientShader? = nil
    ) {
      self.style = style
      self.stroke = stroke
      self.color = color
      self.transform = transform
      self.clip = clip
      self.shader = shader
    }
  }

  public struct Clip: Hashable {
    public var rect: CGRect
    public var radii: SIMD4<Float>
    public var transform: CGAffineTransform

    public init(rect: CGRect, radii: SIMD4<Float>, transform: CGAffineTransform) {
      self.rect = rect
      self.radii = radii
      self.transform = transform
    }
  }

  /// The parts drawn source over, into a bitmap of `width`×`height`
  /// pixels; nil when Cairo cannot allocate it. Over `background`
  /// (premultiplied; nil: transparent) the bitmap is composited as the
  /// GPU blends an image over a target cleared to it, with the GPU's
  /// rounding (`CairoBitmap.makeImage(over:)`), so that a run written
  /// into a cleared target holds the bytes the same run drawn as a quad
  /// leaves.
  public static func render(
    _ parts: [Part], width: Int, height: Int, background: SIMD4<Float>? = nil
  ) -> CGImage? {
    render(parts.map { .part($0) }, width: width, height: height, background: background)
  }

  /// What a run draws: a path item, or a group drawn whole on the CPU.
  public enum Element {
    case part(Part)
    case group(Group)
  }

  /// A group of a run (a masked, clipped or faded layer whose rendering
  /// is paths alone): its elements drawn into a bitmap of their own over
  /// `box`, times its mask's value (`maskMode`: 0 the mask's alpha, 1 one
  /// minus it, 2 its luminance, 3 one minus that, as masked.frag takes
  /// them), its clip's coverage and its opacity, then blended source over.
  /// The elements and the mask are placed in the box's pixels (its corner
  /// at 0, 0); the clip too.
  public struct Group {
    public var elements: [Element]
    public var mask: [Element]?
    public var maskMode: Int
    public var opacity: Float
    public var clip: Clip?
    /// x, y (in the pixels of what the group is drawn into), width, height.
    public var box: SIMD4<Int>
    /// The blend mode it is composited with (its index in
    /// `CIFilter.blendModeNames`), or nil: source over. What it is drawn
    /// into then holds everything behind it.
    public var blend: Int?
    /// Color filters applied to its rendering, in order, before its mask,
    /// clip and opacity (as a layer's `filters` are).
    public var colorFilters: [ColorFilter]

    public init(
      elements: [Element], mask: [Element]?, maskMode: Int, opacity: Float, clip: Clip?,
      box: SIMD4<Int>, blend: Int? = nil, colorFilters: [ColorFilter] = []
    ) {
      self.elements = elements
      self.mask = mask
      self.maskMode = maskMode
      self.opacity = opacity
      self.clip = clip
      self.box = box
      self.blend = blend
      self.colorFilters = colorFilters
    }
  }

  /// `out = clamp(matrix × (r, g, b, a) + bias)` on straight color
  /// (`matrix`: the four output rows), premultiplied again and rounded to
  /// bytes, as colormatrix.frag filters a group's target. A bias of alpha
  /// above zero would color transparent pixels: such filters are not
  /// drawn here (`FramePlanner.composesOnCPU`).
  public struct ColorFilter: Hashable {
    public var matrix: [Float]
    public var bias: SIMD4<Float>

    public init(matrix: [Float], bias: SIMD4<Float>) {
      self.matrix = matrix
      self.bias = bias
    }

    /// Filters `count` premultiplied words (Cairo's: alpha in the top byte).
    func apply(_ words: UnsafeMutablePointer<UInt32>, count: Int) {
      let m = matrix
      guard m.count == 16 else { return }
      let rows = (
        SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]),
        SIMD4(m[8], m[9], m[10], m[11]), SIMD4(m[12], m[13], m[14], m[15])
      )
      // Runs of one color (a flat fill) filtered once.
      var last: (word: UInt32, filtered: UInt32) = (0, 0)
      for i in 0..<count {
        let w = words[i]
        guard w != 0 else { continue }
        if w == last.word {
          words[i] = last.filtered
          continue
        }
        let a = Float(w >> 24) / 255
        let bytes = SIMD3<Float>(Float(w >> 16 & 255), Float(w >> 8 & 255), Float(w & 255))
        let straight = bytes / (255 * a)
        let c = SIMD4<Float>(straight, a)
        let product = SIMD4<Float>(
          (rows.0 * c).sum(), (rows.1 * c).sum(), (rows.2 * c).sum(), (rows.3 * c).sum())
        let f = (product + bias).clamped(
          lowerBound: SIMD4<Float>(repeating: 0), upperBound: SIMD4<Float>(repeating: 1))
        let out = SIMD4<Float>(f.x * f.w, f.y * f.w, f.z * f.w, f.w) * 255 + 0.5
        words[i] =
          UInt32(out.w) << 24 | UInt32(out.x) << 16 | UInt32(out.y) << 8 | UInt32(out.z)
        last = (w, words[i])
      }
    }
  }

  /// The elements drawn source over into a bitmap of `width`×`height`
  /// pixels, as `render(_:width:height:background:)` draws parts; in
  /// memory kept by `scratch` from frame to frame when there is one.
  ///
  /// `redrawing` an earlier bitmap of the same size, background and order
  /// (its pixels, which `scratch` holds: `PathRunScratch.earlier`, taken
  /// over here, so that they are written in place, not copied), only its
  /// `damage` (x, y, width, height) is
  /// drawn again, from transparent, by `elements` (those that reach it:
  /// the rest may be left out): the same bytes as a whole bitmap, since
  /// no coverage depends on what is drawn around it (FreeType renders
  /// within a box, Cairo within a clip, groups in bitmaps of their whole
  /// box, composited within the damage).
  package static func render(
    _ elements: [Element], width: Int, height: Int, background: SIMD4<Float>? = nil,
    scratch: PathRunScratch? = nil, order: TexelOrder = .rgba,
    redrawing damage: SIMD4<Int>? = nil
  ) -> CGImage? {
    guard width > 0, height > 0, width <= CairoBitmap.maxSide, height <= CairoBitmap.maxSide
    else { return nil }
    let b = background.flatMap {
      $0.w > 0 ? SIMD4(byte($0.x), byte($0.y), byte($0.z), byte($0.w)) : nil
    }
    let count = width * height * 4
    // The image's own pixels are the bitmap Cairo draws into, turned into
    // `order` in place after (BGRA: as Cairo drew them).
    var pixels: [UInt8]
    var within: OutlineFiller.PixelBox?
    if let d = damage, var earlier = scratch?.takeEarlier(), earlier.count == count {
      let box = OutlineFiller.PixelBox(x0: d.x, y0: d.y, x1: d.x + d.z, y1: d.y + d.w)
        .intersection(OutlineFiller.PixelBox(x0: 0, y0: 0, x1: width, y1: height))
      pixels = []
      swap(&pixels, &earlier)
      if !box.isEmpty {
        pixels.withUnsafeMutableBytes { raw in
          for y in box.y0..<box.y1 {
            let row = raw.baseAddress! + (y * width + box.x0) * 4
            row.initializeMemory(as: UInt8.self, repeating: 0, count: (box.x1 - box.x0) * 4)
          }
        }
      }
      within = box
    } else {
      pixels = scratch?.pixels(count: count) ?? [UInt8](repeating: 0, count: count)
    }
    let drawn = pixels.withUnsafeMutableBytes { raw -> Bool in
      guard let bitmap = CairoBitmap(drawingInto: raw.baseAddress!, width: width, height: height)
      else { return false }
      if within?.isEmpty != true {
        draw(elements, into: bitmap, scratch: scratch, damage: within)
        bitmap.finish(over: b, order: order, within: within)
      }
      return true
    }
    guard drawn else { return nil }
    return CGImage(width: width, height: height, premultiplied: pixels, order: order)
  }

  /// Draws `elements` into `bitmap`, source over, in their order, within
  /// `damage` (nil: everywhere); group bitmaps in `scratch`'s memory when
  /// there is one.
  static func draw(
    _ elements: [Element], into bitmap: CairoBitmap, scratch: PathRunScratch?,
    damage: OutlineFiller.PixelBox? = nil
  ) {
    let (width, height) = (bitmap.width, bitmap.height)
    let cr = bitmap.context
    if let damage { clip(cr, to: damage) }
    // The last clip's coverage, for the parts after it with the same clip.
    var clipMask: (clip: Clip, mask: OutlineFiller.Clip?)?
    for element in elements {
      let part: Part
      switch element {
      case .part(let p): part = p
      case .group(let group):
        drawGroup(group, into: bitmap, scratch: scratch, damage: damage)
        continue
      }
      let c = part.color
      guard c.w > 0 || part.shader != nil else { continue }
      // A fill: FreeType's coverage (`OutlineFiller`), times its clip's,
      // when it takes the path and the clip.
      if !part.stroke, Self.isInvertible(part.transform), !Self.cairoFillsOnly {
        var mask: OutlineFiller.Clip?
        if let clip = part.clip {
          if let last = clipMask, last.clip == clip {
            mask = last.mask
          } else {
            mask = Self.freeTypeClip(clip, width: width, height: height)
            clipMask = (clip, mask)
          }
        }
        if part.clip == nil || mask != nil,
          OutlineFiller.fill(
            part.style.path, evenOdd: part.style.fillRule == .evenOdd, transform: part.transform,
            argb: Self.argb(c), shader: part.shader, clip: mask, within: damage, into: bitmap)
        {
          continue
        }
      }
      if let shader = part.shader {
        // Cairo's coverage of the stroke (or of a fill FreeType refused),
        // painted with the gradient.
        Self.drawShaded(part, shader, into: bitmap, damage: damage)
        continue
      }
      if let clip = part.clip {
        guard Self.setMatrix(cr, clip.transform) else { continue }
        cairo_new_path(cr)
        addRoundedRect(cr, clip.rect, clip.radii)
        cairo_clip(cr)
      }
      defer {
        if part.clip != nil {
          cairo_reset_clip(cr)
          if let damage { clip(cr, to: damage) }
        }
      }
      let t = part.transform
      // A plane seen edge-on (no inverse: Cairo would refuse the matrix)
      // covers nothing.
      guard Self.setMatrix(cr, t) else { continue }
      setSource(cr, c)
      if part.stroke {
        ShapeRasterizer.stroke(part.style, cr, tolerance: Self.strokeTolerance(t))
      } else {
        ShapeRasterizer.fill(part.style, cr)
      }
      // An error stops a Cairo context for good: the parts drawn so far are
      // the run (and a part Cairo refused, which the GPU path would have
      // drawn, is not worth a blank bitmap).
      guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return }
    }
  }

  /// Limits Cairo's drawing on `cr` to the pixels of `box` (a clip of
  /// whole pixels, in the bitmap's pixels).
  private static func clip(_ cr: OpaquePointer, to box: OutlineFiller.PixelBox) {
    cairo_identity_matrix(cr)
    cairo_new_path(cr)
    cairo_rectangle(
      cr, Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0))
    cairo_clip(cr)
  }

  /// `group` drawn into a bitmap of its box, then blended into `bitmap`
  /// through its mask, clip and opacity, within `damage` (its bitmaps of
  /// the whole box: the content drawn within the damage's part of it).
  private static func drawGroup(
    _ group: Group, into bitmap: CairoBitmap, scratch: PathRunScratch?,
    damage: OutlineFiller.PixelBox?
  ) {
    let b = group.box
    // The box within the bitmap (the planner keeps it there), and the damage.
    var reach = OutlineFiller.PixelBox(
      x0: max(b.x, 0), y0: max(b.y, 0), x1: min(b.x + b.z, bitmap.width),
      y1: min(b.y + b.w, bitmap.height))
    if let damage { reach = reach.intersection(damage) }
    let (x0, y0, x1, y1) = (reach.x0, reach.y0, reach.x1, reach.y1)
    guard x0 < x1, y0 < y1, group.opacity > 0 else { return }
    // The damage in the box's pixels.
    let inner = damage.map { _ in
      OutlineFiller.PixelBox(x0: x0 - b.x, y0: y0 - b.y, x1: x1 - b.x, y1: y1 - b.y)
    }
    // The clip first: a group whose clip covers nothing draws nothing.
    var clip: OutlineFiller.Clip?
    if let c = group.clip {
      // A plane seen edge-on covers nothing.
      guard isInvertible(c.transform) else { return }
      // FreeType's coverage; Cairo's where FreeType cannot take the clip
      // (a coordinate beyond its range: a huge rounded clip).
      guard
        let made = freeTypeClip(c, width: b.z, height: b.w) ?? cairoClip(c, width: b.z, height: b.w)
      else { return }
      clip = made
    }
    func makeBitmap() -> CairoBitmap? {
      scratch.map { CairoBitmap(width: b.z, height: b.w, scratch: $0) }
        ?? CairoBitmap(width: b.z, height: b.w)
    }
    guard let content = makeBitmap() else { return }
    draw(group.elements, into: content, scratch: scratch, damage: inner)
    if !group.colorFilters.isEmpty, let words = content.pixels() {
      let count = content.stride / 4 * b.w
      for filter in group.colorFilters { filter.apply(words, count: count) }
      content.markDirty()
    }
    var mask: CairoBitmap?
    if let elements = group.mask {
      if clip == nil, group.maskMode == 0, let coverage = coverage(of: elements, b.z, b.w) {
        // Its alpha is the coverage of one opaque fill: that coverage, a
        // byte a pixel, clips the group (no bitmap of words cleared, drawn
        // and read).
        clip = coverage
      } else {
        guard let m = makeBitmap() else { return }
        draw(elements, into: m, scratch: scratch, damage: inner)
        mask = m
      }
    }
    guard let source = content.pixels(), let target = bitmap.pixels() else { return }
    defer { bitmap.markDirty() }
    let maskPixels = mask?.pixels()
    // A mask whose pixels Cairo cannot give masks everything out.
    guard mask == nil || maskPixels != nil else { return }
    let opacity = UInt32(byte(group.opacity))
    OutlineFiller.composite(
      source, stride: content.stride / 4, mask: maskPixels, maskStride: (mask?.stride ?? 0) / 4,
      maskMode: group.maskMode, clip: clip, opacity: opacity,
      blend: group.blend.flatMap(BlendModePixels.Mode.init(rawValue:)),
      into: target, stride: bitmap.stride / 4, at: (b.x, b.y), rows: (y0 - b.y)..<(y1 - b.y),
      columns: (x0 - b.x)..<(x1 - b.x))
  }

  /// The alpha `elements` leave over a `width`×`height` bitmap when they
  /// are one fill in an opaque color that FreeType takes (its coverage,
  /// which `draw` writes as that alpha: 255 times the coverage over 255),
  /// as a clip; nil otherwise.
  private static func coverage(of elements: [Element], _ width: Int, _ height: Int)
    -> OutlineFiller.Clip?
  {
    guard elements.count == 1, case .part(let part) = elements[0], !part.stroke,
      part.shader == nil, part.clip == nil, byte(part.color.w) == 255,
      isInvertible(part.transform), !cairoFillsOnly
    else { return nil }
    return OutlineFiller.Clip(
      part.style.path, rect: nil, transform: part.transform, width: width, height: height,
      evenOdd: part.style.fillRule == .evenOdd)
  }

  /// `clip`'s coverage by FreeType over a `width`×`height` bitmap (a rect
  /// on its axes exact, without a mask); nil when its map has no inverse
  /// or FreeType cannot take it.
  private static func freeTypeClip(_ clip: Clip, width: Int, height: Int) -> OutlineFiller.Clip? {
    guard isInvertible(clip.transform) else { return nil }
    let square = (0..<4).allSatisfy { clip.radii[$0] <= 0 }
    return OutlineFiller.Clip(
      roundedRect(clip.rect, clip.radii), rect: square ? clip.rect : nil,
      transform: clip.transform, width: width, height: height)
  }

  /// `clip` as Cairo covers it over a `width`×`height` bitmap: a byte a
  /// pixel; nil when Cairo cannot allocate it or refuses the map.
  private static func cairoClip(_ clip: Clip, width: Int, height: Int) -> OutlineFiller.Clip? {
    coverage(width: width, height: height) { cr in
      guard setMatrix(cr, clip.transform) else { return false }
      addRoundedRect(cr, clip.rect, clip.radii)
      cairo_fill(cr)
      return true
    } read: { data, stride in
      var bytes = [UInt8](repeating: 0, count: width * height)
      for y in 0..<height {
        for x in 0..<width { bytes[y * width + x] = data[y * stride + x] }
      }
      return OutlineFiller.Clip(coverage: bytes, width: width, height: height)
    }
  }

  /// `part` as Cairo covers it, in a byte a pixel over the pixels it may
  /// reach, then blended in `shader`'s colors at that coverage within
  /// `damage` (the coverage of the whole reach: Cairo covers a path cut at
  /// a surface's edge differently there).
  private static func drawShaded(
    _ part: Part, _ shader: GradientShader, into bitmap: CairoBitmap,
    damage: OutlineFiller.PixelBox?
  ) {
    let t = part.transform
    guard isInvertible(t) else { return }
    let style = part.style
    // How far the stroke reaches past the path's control points: half the
    // line width, times the miter limit at a miter join (a square cap
    // reaches √2 times).
    var reach: CGFloat = 0
    if part.stroke {
      let limit = style.lineJoin == .miter ? max(style.miterLimit, 1) : 1
      reach = style.lineWidth / 2 * max(limit, 1.5)
    }
    // A pixel past it too: antialiasing reaches into the pixels an edge touches.
    var area = style.path.boundingBox.insetBy(dx: -reach, dy: -reach).applying(t)
      .insetBy(dx: -1, dy: -1)
    if let clip = part.clip {
      area = area.intersection(clip.rect.applying(clip.transform))
    }
    area = area.intersection(CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
    guard !area.isNull, area.minX.isFinite, area.maxY.isFinite else { return }
    let box = OutlineFiller.PixelBox(
      x0: Int(saturating: area.minX, rounding: .down),
      y0: Int(saturating: area.minY, rounding: .down),
      x1: Int(saturating: area.maxX, rounding: .up), y1: Int(saturating: area.maxY, rounding: .up))
    let (w, h) = (box.x1 - box.x0, box.y1 - box.y0)
    guard w > 0, h > 0 else { return }
    // The bitmap's pixels moved to the box's corner.
    let shift = CGAffineTransform(translationX: -CGFloat(box.x0), y: -CGFloat(box.y0))
    _ = coverage(width: w, height: h) { cr in
      if let clip = part.clip {
        guard setMatrix(cr, clip.transform.concatenating(shift)) else { return false }
        addRoundedRect(cr, clip.rect, clip.radii)
        cairo_clip(cr)
      }
      guard setMatrix(cr, t.concatenating(shift)) else { return false }
      if part.stroke {
        ShapeRasterizer.stroke(style, cr, tolerance: strokeTolerance(t))
      } else {
        ShapeRasterizer.fill(style, cr)
      }
      return true
    } read: { data, stride in
      let drawn = damage.map { box.intersection($0) } ?? box
      guard !drawn.isEmpty else { return }
      OutlineFiller.blend(
        coverage: data + (drawn.y0 - box.y0) * stride + drawn.x0 - box.x0, stride: stride,
        box: drawn, shader: shader, into: bitmap)
    }
  }

  /// Cairo's coverage of what `draw` adds to a context of its own (its
  /// source opaque white) over a `width`×`height` byte-a-pixel surface,
  /// handed to `read` with the surface's stride; nil when Cairo cannot
  /// allocate it, `draw` gives up, or the context fails.
  private static func coverage<T>(
    width: Int, height: Int, _ draw: (OpaquePointer) -> Bool,
    read: (UnsafePointer<UInt8>, Int) -> T
  ) -> T? {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
    else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface)
    else { return nil }
    defer { cairo_destroy(cr) }
    cairo_set_source_rgba(cr, 1, 1, 1, 1)
    guard draw(cr) else { return nil }
    cairo_surface_flush(surface)
    guard cairo_status(cr) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
    else { return nil }
    return read(data, Int(cairo_image_surface_get_stride(surface)))
  }

  /// Cairo flattens curves within `tolerance` of user space: a tenth of a
  /// pixel, through the map's largest stretch.
  private static func strokeTolerance(_ t: CGAffineTransform) -> CGFloat {
    let stretch = max(
      (t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot(), 1e-9)
    return 0.1 / stretch
  }

  /// Fills by Cairo too (`LAMINA_FILLS=cairo`), to compare the two.
  static let cairoFillsOnly = ProcessInfo.processInfo.environment["LAMINA_FILLS"] == "cairo"

  /// Whether `t` has an inverse (a plane seen edge-on has none: it covers
  /// nothing).
  private static func isInvertible(_ t: CGAffineTransform) -> Bool {
    let det = t.a * t.d - t.b * t.c
    return det != 0 && det.isFinite
  }

  /// A premultiplied color as Cairo's ARGB32 word, in the bytes the GPU
  /// writes.
  private static func argb(_ c: SIMD4<Float>) -> UInt32 {
    UInt32(byte(c.w)) << 24 | UInt32(byte(c.x)) << 16 | UInt32(byte(c.y)) << 8 | UInt32(byte(c.z))
  }

  /// Sets `t` as the context's matrix; false (nothing set) when Cairo would
  /// refuse it: a map without an inverse.
  private static func setMatrix(_ cr: OpaquePointer, _ t: CGAffineTransform) -> Bool {
    guard isInvertible(t) else { return false }
    var matrix = cairo_matrix_t(
      xx: Double(t.a), yx: Double(t.b), xy: Double(t.c), yy: Double(t.d), x0: Double(t.tx),
      y0: Double(t.ty))
    cairo_set_matrix(cr, &matrix)
    return true
  }

  /// A color component in 8 bits as the GPU writes it: rounded in single
  /// precision (0.9 as a Float times 255 is 229.5 there, 229.49999… in
  /// double precision).
  static func byte(_ v: Float) -> UInt8 {
    UInt8(clamping: Int(saturating: Double(min(max(v, 0), 1) * 255 + 0.5), rounding: .down))
  }

  /// A premultiplied color as Cairo's source. Cairo premultiplies the
  /// straight components it is given into 16 bits and keeps the top 8 of
  /// each (0.1 becomes 25 where the GPU writes 26): the components are
  /// first rounded to the 8-bit values the GPU writes, v/255, whose 16-bit
  /// form (v·257) keeps v in its top 8 bits, so that a path covering a
  /// pixel writes the color the GPU path writes.
  private static func setSource(_ cr: OpaquePointer, _ c: SIMD4<Float>) {
    func byte(_ v: Float) -> Double { Double(Self.byte(v)) }
    let a = byte(c.w)
    guard a > 0 else { return cairo_set_source_rgba(cr, 0, 0, 0, 0) }
    cairo_set_source_rgba(
      cr, min(byte(c.x) / a, 1), min(byte(c.y) / a, 1), min(byte(c.z) / a, 1), a / 255)
  }

  /// `addRoundedRect`'s rect as a path.
  static func roundedRect(_ r: CGRect, _ radii: SIMD4<Float>) -> CGPath {
    let limit = Double(min(r.width, r.height)) / 2
    let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
    let k = (0..<4).map { CGFloat(min(max(Double(radii[$0]), 0), limit)) }
    let path = CGMutablePath()
    guard k.contains(where: { $0 > 0 }) else {
      path.addRect(r)
      return path
    }
    let pi = CGFloat.pi
    path.addArc(
      center: CGPoint(x: x1 - k[1], y: y0 + k[1]), radius: k[1], startAngle: -pi / 2,
      endAngle: 0, clockwise: false)
    path.addArc(
      center: CGPoint(x: x1 - k[2], y: y1 - k[2]), radius: k[2], startAngle: 0, endAngle: pi / 2,
      clockwise: false)
    path.addArc(
      center: CGPoint(x: x0 + k[3], y: y1 - k[3]), radius: k[3], startAngle: pi / 2,
      endAngle: pi, clockwise: false)
    path.addArc(
      center: CGPoint(x: x0 + k[0], y: y0 + k[0]), radius: k[0], startAngle: pi,
      endAngle: 3 * pi / 2, clockwise: false)
    path.closeSubpath()
    return path
  }

  /// A rect with circular corners of the given radii (each at most half the
  /// shorter side, as the clip's own shader takes them).
  private static func addRoundedRect(_ cr: OpaquePointer, _ r: CGRect, _ radii: SIMD4<Float>) {
    let limit = Double(min(r.width, r.height)) / 2
    let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
    let k = (0..<4).map { min(max(Double(radii[$0]), 0), limit) }
    guard k.contains(where: { $0 > 0 }) else {
      cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
      return
    }
    let pi = Double.pi
    cairo_new_sub_path(cr)
    cairo_arc(cr, x1 - k[1], y0 + k[1], k[1], -pi / 2, 0)
    cairo_arc(cr, x1 - k[2], y1 - k[2], k[2], 0, pi / 2)
    cairo_arc(cr, x0 + k[3], y1 - k[3], k[3], pi / 2, pi)
    cairo_arc(cr, x0 + k[0], y0 + k[0], k[0], pi, 3 * pi / 2)
    cairo_close_path(cr)
  }
}
