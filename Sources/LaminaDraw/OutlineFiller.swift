import CFreeType
import Foundation
import Lamina
import Synchronization

/// Path fills drawn by FreeType's anti-aliasing rasterizer (the "smooth"
/// renderer's, through `FT_Outline_Render`) into a Cairo bitmap, source
/// over in a premultiplied color. Its coverage is the exact area of each
/// pixel the path covers, found cell by cell along the edges; Cairo's own
/// scan converter samples 15 rows of every pixel, which on the paths of a
/// Lottie frame costs more (docs/rendering.md, "Paths on the CPU"). Paths FreeType cannot take (more points than an
/// outline holds, coordinates beyond its fixed-point range) are left to
/// Cairo: `fill` returns false.
enum OutlineFiller {
  /// The most points of an outline (its counts are 16-bit).
  static let maxPoints = Int(Int16.max)
  /// The largest coordinate, in pixels, given to FreeType (it refuses an
  /// outline whose box reaches beyond 2²⁴ in 26.6 fixed point).
  static let maxCoordinate = Double(1 << 18)
  /// The widest strip of pixels one `FT_Outline_Render` call covers. Its
  /// rasterizer keeps the cells of a band of rows in a pool of about 680
  /// (16 KiB) and halves the band until it fits; a single row that needs
  /// more fails the whole call, after the bands above it were handed out
  /// (a long shallow edge across a 1080p frame: a cell a pixel). A strip
  /// holds at most its width and one in a row, so none fails; a pixel's
  /// coverage does not depend on the strip (the cells left of it add up
  /// into one).
  static let stripWidth = 384

  /// Libraries not in use (FreeType asks one library per thread at a time).
  private static let libraries = Mutex<[FT_Library]>([])

  /// Fills `path` through `transform` (to the bitmap's pixels) with the
  /// premultiplied color `argb` (Cairo's word: alpha in the top byte) into
  /// `bitmap`, source over, within `clip` and within `damage` (the pixels
  /// drawn again; nil: all). False, with nothing drawn, when FreeType
  /// cannot take the path.
  static func fill(
    _ path: CGPath, evenOdd: Bool, transform t: CGAffineTransform, argb: UInt32,
    shader: GradientShader? = nil, clip: Clip? = nil, within damage: PixelBox? = nil,
    into bitmap: CairoBitmap
  ) -> Bool {
    guard let outline = Outline(path, transform: t), let data = bitmap.pixels() else {
      return false
    }
    defer { bitmap.markDirty() }
    let box = clip?.box ?? PixelBox(x0: 0, y0: 0, x1: bitmap.width, y1: bitmap.height)
    // FreeType hands out no span beyond the box it renders, and a pixel's
    // coverage does not depend on that box (`stripWidth`).
    let drawn = damage.map { box.intersection($0) } ?? box
    guard drawn.x0 < drawn.x1, drawn.y0 < drawn.y1 else { return true }
    let mask = clip?.mask ?? []
    return mask.withUnsafeBufferPointer { mask in
      var target = SpanTarget(
        pixels: data, stride: bitmap.stride / 4, width: Int32(bitmap.width),
        height: Int32(bitmap.height), color: argb, shader: shader, rect: clip?.rect,
        inner: clip?.inner ?? (0, 0),
        mask: clip?.rect == nil && clip != nil ? mask.baseAddress : nil, box: box)
      return render(outline, evenOdd: evenOdd, drawn, blendSpans, &target)
    }
  }

  /// Blends `shader`'s colors into `bitmap`, source over, at the coverage
  /// of `bytes` (a byte a pixel, `stride` bytes a row) over `box` (within
  /// the bitmap): a path that Cairo covered, painted with a gradient.
  static func blend(
    coverage bytes: UnsafePointer<UInt8>, stride: Int, box: PixelBox, shader: GradientShader,
    into bitmap: CairoBitmap
  ) {
    guard let data = bitmap.pixels() else { return }
    defer { bitmap.markDirty() }
    let words = bitmap.stride / 4
    for y in box.y0..<box.y1 {
      let coverage = bytes + (y - box.y0) * stride - box.x0
      let row = data + y * words
      var x = box.x0
      while x < box.x1 {
        // A run of covered pixels, shaded at once.
        guard coverage[x] != 0 else {
          x += 1
          continue
        }
        var end = x + 1
        while end < box.x1 && coverage[end] != 0 { end += 1 }
        let colors = shader.shade(x: x, y: y, count: end - x) - x
        // Runs of one coverage (the inside: all of it) four pixels a step.
        var k = x
        while k < end {
          let level = coverage[k]
          var same = k + 1
          while same < end && coverage[same] == level { same += 1 }
          blendColors(row + k, same - k, UInt32(level), colors + k)
          k = same
        }
        x = end
      }
    }
  }

  /// Blends `source` (a group's rendering, premultiplied words, `stride`
  /// words a row) into `target` at `origin`, source over, each pixel
  /// scaled by `opacity` (0...255), by the value of `mask`'s pixel there
  /// (`maskMode`: 0 its alpha, 1 one minus it, 2 its luminance, 3 one
  /// minus that; the mask's rows as the source's) and by `clip`'s coverage
  /// (placed in the source's pixels), over the source's `rows` and
  /// `columns`; with `blend`'s mode instead of source over when there is one.
  static func composite(
    _ source: UnsafeMutablePointer<UInt32>, stride: Int, mask: UnsafeMutablePointer<UInt32>?,
    maskStride: Int, maskMode: Int, clip: Clip?, opacity: UInt32,
    blend: BlendModePixels.Mode? = nil,
    into target: UnsafeMutablePointer<UInt32>, stride targetStride: Int, at origin: (Int, Int),
    rows: Range<Int>, columns: Range<Int>
  ) {
    guard opacity > 0, !rows.isEmpty, !columns.isEmpty else { return }
    var rows = rows
    var columns = columns
    if let clip {
      // Nothing outside the clip's box.
      rows = rows.clamped(to: clip.box.y0..<max(clip.box.y1, clip.box.y0))
      columns = columns.clamped(to: clip.box.x0..<max(clip.box.x1, clip.box.x0))
      guard !rows.isEmpty, !columns.isEmpty else { return }
    }
    // A clip's mask bytes, read in place.
    let clipBytes = clip?.mask ?? []
    clipBytes.withUnsafeBufferPointer { clipBase in
      for y in rows {
        let from = source + y * stride
        let into = target + (origin.1 + y) * targetStride + origin.0
        guard mask != nil || clip != nil || blend != nil else {
          blendColors(into + columns.lowerBound, columns.count, opacity, from + columns.lowerBound)
          continue
        }
        let maskRow = mask.map { UnsafePointer($0 + y * maskStride) }
        // A rect clip: the row's height inside it.
        var rowShare = 1.0
        if let r = clip?.rect {
          rowShare = max(min(Double(y + 1), r.w) - max(Double(y), r.y), 0)
        }
        /// Pixels `range` one at a time.
        func each(_ range: Range<Int>) {
          for x in range {
            let color = from[x]
            guard color != 0 else { continue }
            var factor = opacity
            if let maskRow { factor = mul(factor, maskValue(maskRow[x], maskMode)) }
            if let clip {
              if let r = clip.rect {
                let inside = x >= clip.inner.0 && x < clip.inner.1
                if !inside || rowShare != 1 {
                  factor = scaled(factor, (inside ? 1 : share(x, r)) * rowShare)
                }
              } else {
                let box = clip.box
                factor = mul(
                  factor, UInt32(clip.mask[(y - box.y0) * (box.x1 - box.x0) + x - box.x0]))
              }
            }
            if let blend {
              if factor > 0 {
                into[x] = BlendModePixels.blend(into[x], color, factor: factor, mode: blend)
              }
            } else {
              blendOne(into + x, factor, color)
            }
          }
        }
        guard blend == nil, rowShare == 1 else {
          each(columns)
          continue
        }
        // Source over, eight pixels a step where the clip's share is whole
        // or a byte of its mask: the same products.
        if let clip, clip.rect != nil {
          let inner = columns.clamped(to: clip.inner.0..<max(clip.inner.1, clip.inner.0))
          guard !inner.isEmpty else {
            each(columns)
            continue
          }
          each(columns.lowerBound..<inner.lowerBound)
          compositeRun(
            into + inner.lowerBound, from + inner.lowerBound, inner.count, opacity: opacity,
            mask: maskRow.map { $0 + inner.lowerBound }, maskMode: maskMode, clip: nil)
          each(inner.upperBound..<columns.upperBound)
        } else {
          let clipRow = clip.map { clip in
            clipBase.baseAddress! + (y - clip.box.y0) * (clip.box.x1 - clip.box.x0) - clip.box.x0
          }
          compositeRun(
            into + columns.lowerBound, from + columns.lowerBound, columns.count, opacity: opacity,
            mask: maskRow.map { $0 + columns.lowerBound }, maskMode: maskMode,
            clip: clipRow.map { $0 + columns.lowerBound })
        }
      }
    }
  }

  /// Pixels from (x0, y0) to (x1, y1), the ends excluded.
  struct PixelBox: Equatable {
    var x0, y0, x1, y1: Int

    /// The pixels in both (empty: `x0 >= x1` or `y0 >= y1`).
    func intersection(_ other: PixelBox) -> PixelBox {
      PixelBox(
        x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1),
        y1: min(y1, other.y1))
    }

    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
  }

  /// A clip of fills: a rect on the bitmap's axes, whose coverage of a
  /// pixel is the area of the pixel inside it (its width inside it times
  /// its height inside it: exact, and no mask), or any other shape as a
  /// mask of its coverage over the pixels it reaches.
  final class Clip {
    /// The pixels the clip reaches, within the bitmap.
    let box: PixelBox
    /// The rect in pixels, when the clip is one.
    let rect: SIMD4<Double>?
    /// The columns wholly inside the rect: from `inner.0` to `inner.1`
    /// (within the box).
    let inner: (Int, Int)
    /// The coverage over `box`, a byte a pixel (rows of its width), when
    /// the clip is not a rect.
    let mask: [UInt8]

    /// The clip of `path` (a rounded rect: `rect` when its corners are
    /// square) through `t`, on a `width`×`height` bitmap, filled by the
    /// even-odd rule or the nonzero one; nil when FreeType cannot take the
    /// path.
    init?(
      _ path: CGPath, rect r: CGRect?, transform t: CGAffineTransform, width: Int, height: Int,
      evenOdd: Bool = false
    ) {
      if let r, t.b == 0, t.c == 0 {
        let xs = (Double(t.a * r.minX + t.tx), Double(t.a * r.maxX + t.tx))
        let ys = (Double(t.d * r.minY + t.ty), Double(t.d * r.maxY + t.ty))
        let q = SIMD4(min(xs.0, xs.1), min(ys.0, ys.1), max(xs.0, xs.1), max(ys.0, ys.1))
        guard q.x.isFinite, q.y.isFinite, q.z.isFinite, q.w.isFinite else { return nil }
        rect = q
        let box = Self.box(q, width, height)
        self.box = box
        func column(_ v: Double) -> Int {
          Int(saturating: min(max(v, Double(box.x0)), Double(box.x1)), rounding: .down)
        }
        inner = (column(q.x.rounded(.up)), column(q.z.rounded(.down)))
        mask = []
        return
      }
      guard let outline = Outline(path, transform: t) else { return nil }
      let reach = outline.box
      let box = PixelBox(
        x0: min(max(reach.x0, 0), width), y0: min(max(reach.y0, 0), height),
        x1: min(max(reach.x1, 0), width), y1: min(max(reach.y1, 0), height))
      self.box = box
      rect = nil
      inner = (0, 0)
      let w = max(box.x1 - box.x0, 0)
      let h = max(box.y1 - box.y0, 0)
      var drawn = w == 0 || h == 0
      mask = [UInt8](unsafeUninitializedCapacity: w * h) { bytes, count in
        bytes.initialize(repeating: 0)
        count = w * h
        guard !drawn else { return }
        var target = MaskTarget(bytes: bytes.baseAddress!, box: box)
        drawn = OutlineFiller.render(outline, evenOdd: evenOdd, box, writeSpans, &target)
      }
      guard drawn else { return nil }
    }

    /// A clip of the given coverage (a byte a pixel, rows of `width`) over
    /// a whole `width`×`height` bitmap.
    init(coverage: [UInt8], width: Int, height: Int) {
      box = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
      rect = nil
      inner = (0, 0)
      mask = coverage
    }

    /// The whole pixels `q` (x0, y0, x1, y1) touches, within the bitmap.
    private static func box(_ q: SIMD4<Double>, _ width: Int, _ height: Int) -> PixelBox {
      func clamp(_ v: Double, _ limit: Int) -> Int {
        Int(saturating: min(max(v, 0), Double(limit)), rounding: .down)
      }
      return PixelBox(
        x0: clamp(q.x.rounded(.down), width), y0: clamp(q.y.rounded(.down), height),
        x1: clamp(q.z.rounded(.up), width), y1: clamp(q.w.rounded(.up), height))
    }
  }

  /// Renders `outline` within `box`, strip by strip (`stripWidth`), handing
  /// each row's spans to `spans` with `target`; false when FreeType fails
  /// before handing out any (a call that fails after, which the strips
  /// leave no cause for, keeps what it drew: drawing the path again would
  /// blend those pixels twice).
  private static func render<Target: SpanSink>(
    _ outline: Outline, evenOdd: Bool, _ box: PixelBox, _ spans: FT_SpanFunc,
    _ target: inout Target
  ) -> Bool {
    let lower = max(box.x0, outline.box.x0)
    let upper = min(box.x1, outline.box.x1)
    let top = max(box.y0, outline.box.y0)
    let bottom = min(box.y1, outline.box.y1)
    guard lower < upper, top < bottom else { return true }
    guard let library = takeLibrary() else { return false }
    defer { libraries.withLock { $0.append(library) } }
    // FreeType reads the outline's arrays and writes none of them.
    return outline.points.withUnsafeBufferPointer { points in
      outline.tags.withUnsafeBufferPointer { tags in
        outline.ends.withUnsafeBufferPointer { ends in
          var ft = FT_Outline(
            n_contours: Int16(ends.count), n_points: Int16(points.count),
            points: UnsafeMutablePointer(mutating: points.baseAddress),
            tags: UnsafeMutablePointer(mutating: tags.baseAddress),
            contours: UnsafeMutablePointer(mutating: ends.baseAddress),
            flags: evenOdd ? FT_OUTLINE_EVEN_ODD_FILL : 0)
          for x in stride(from: lower, to: upper, by: stripWidth) {
            var params = FT_Raster_Params()
            params.flags = FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP
            params.gray_spans = spans
            params.clip_box = FT_BBox(
              xMin: FT_Pos(x), yMin: FT_Pos(top), xMax: FT_Pos(min(x + stripWidth, upper)),
              yMax: FT_Pos(bottom))
            let status = withUnsafeMutablePointer(to: &target) { user in
              params.user = UnsafeMutableRawPointer(user)
              return FT_Outline_Render(library, &ft, &params)
            }
            if status != 0 { return target.emitted }
          }
          return true
        }
      }
    }
  }

  private static func takeLibrary() -> FT_Library? {
    if let library = libraries.withLock({ $0.popLast() }) { return library }
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0 else { return nil }
    return library
  }

  /// A path as FreeType's outline: points in 26.6 fixed point, their tags,
  /// and the index of each contour's last point. Every contour is closed,
  /// as a fill closes every subpath. Curves are flattened here, into
  /// chords within `tolerance` of the curve in pixels (Cairo's own
  /// tolerance; FreeType's own splitting of curves strays up to a sixth of
  /// a pixel inside them).
  struct Outline {
    var points: [FT_Vector] = []
    var tags: [CChar] = []
    var ends: [Int16] = []
    /// The whole pixels the points reach.
    var box = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)

    /// How far a chord may stray from its curve, in pixels.
    static let tolerance = 0.1
    /// The most chords a curve is cut into.
    static let maxChords = 1024

    /// Nil when the path has more points than an outline holds, or a point
    /// that is not finite or beyond `maxCoordinate` once transformed.
    init?(_ path: CGPath, transform t: CGAffineTransform) {
      let elements = path.elements
      points.reserveCapacity(elements.count * 4)
      var start = SIMD2<Double>.zero  // the subpath's first point
      var last = SIMD2<Double>.zero
      var open = false  // a contour has begun and not ended
      var valid = true
      func map(_ p: CGPoint) -> SIMD2<Double> {
        SIMD2(Double(t.a * p.x + t.c * p.y + t.tx), Double(t.b * p.x + t.d * p.y + t.ty))
      }
      func add(_ p: SIMD2<Double>) {
        guard abs(p.x) <= maxCoordinate, abs(p.y) <= maxCoordinate else {
          valid = false
          return
        }
        points.append(FT_Vector(x: FT_Pos((p.x * 64).rounded()), y: FT_Pos((p.y * 64).rounded())))
        last = p
      }
      func end() {
        if open { ends.append(Int16(truncatingIfNeeded: points.count - 1)) }
        open = false
      }
      // A segment after a close starts a contour at the closed one's start.
      func begin() {
        if !open {
          add(start)
          open = true
        }
      }
      // Chords of the curve through `count` evenly spaced parameters
      // (Wang's bound: the count that keeps every chord within the
      // tolerance, from the control polygon's second differences).
      func chords(_ bend: Double, degree: Double, _ point: (Double) -> SIMD2<Double>) {
        let wanted = (degree * (degree - 1) / 8 * bend / Self.tolerance).squareRoot().rounded(.up)
        guard wanted.isFinite else {
          valid = false
          return
        }
        let count = Int(saturating: min(max(wanted, 1), Double(Self.maxChords)), rounding: .down)
        for i in 1...count { add(point(Double(i) / Double(count))) }
      }
      for element in elements {
        switch element {
        case .moveTo(let p):
          end()
          start = map(p)
          add(start)
          open = true
        case .lineTo(let p):
          begin()
          add(map(p))
        case .quadCurveTo(let p, let c):
          begin()
          let (p0, p1, p2) = (last, map(c), map(p))
          let bend = (p0 - 2 * p1 + p2).magnitude
          chords(bend, degree: 2) { s in
            let r = 1 - s
            return r * r * p0 + 2 * r * s * p1 + s * s * p2
          }
        case .curveTo(let p, let c1, let c2):
          begin()
          let (p0, p1, p2, p3) = (last, map(c1), map(c2), map(p))
          let bend = max((p0 - 2 * p1 + p2).magnitude, (p1 - 2 * p2 + p3).magnitude)
          chords(bend, degree: 3) { s in
            let r = 1 - s
            return r * r * r * p0 + 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s * p3
          }
        case .closeSubpath:
          end()
          last = start
        }
        guard valid, points.count <= maxPoints else { return nil }
      }
      end()
      tags = [CChar](repeating: CChar(FT_CURVE_TAG_ON), count: points.count)
      if let first = points.first {
        var lower = first
        var upper = first
        for p in points.dropFirst() {
          lower.x = min(lower.x, p.x)
          lower.y = min(lower.y, p.y)
          upper.x = max(upper.x, p.x)
          upper.y = max(upper.y, p.y)
        }
        // 26.6 fixed point to whole pixels, outward.
        box = PixelBox(
          x0: Int(lower.x >> 6), y0: Int(lower.y >> 6), x1: Int((upper.x + 63) >> 6),
          y1: Int((upper.y + 63) >> 6))
      }
    }
  }
}

extension SIMD2 where Scalar == Double {
  fileprivate var magnitude: Double { (x * x + y * y).squareRoot() }
}

/// What FreeType's spans are handed to: whether any came, and the pixels
/// they may fill.
protocol SpanSink {
  var emitted: Bool { get set }
  var box: OutlineFiller.PixelBox { get }
}

/// The target a span callback is given, marked as handed spans, and the
/// row; nil when the row is outside the target's box.
@inline(__always)
private func begin<Target: SpanSink>(
  _ user: UnsafeMutableRawPointer?, _ y: Int32, as: Target.Type
) -> (Target, Int)? {
  guard let pointer = user?.assumingMemoryBound(to: Target.self) else { return nil }
  pointer.pointee.emitted = true
  let y = Int(truncatingIfNeeded: y)
  guard y >= pointer.pointee.box.y0, y < pointer.pointee.box.y1 else { return nil }
  return (pointer.pointee, y)
}

/// Each of a row's spans clamped to the box's columns: its first column,
/// the one past its last, its coverage.
@inline(__always)
private func eachSpan(
  _ spans: UnsafePointer<FT_Span>, _ count: Int32, within box: OutlineFiller.PixelBox,
  _ body: (Int, Int, UInt8) -> Void
) {
  for i in 0..<Int(truncatingIfNeeded: count) {
    let span = spans[i]
    let x = max(Int(span.x), box.x0)
    let end = min(Int(span.x) + Int(span.len), box.x1)
    if x < end { body(x, end, span.coverage) }
  }
}

/// Where FreeType's spans go: Cairo's ARGB32 words (premultiplied, alpha
/// in the top byte), the color drawn, and the clip.
private struct SpanTarget: SpanSink {
  var emitted = false
  var pixels: UnsafeMutablePointer<UInt32>
  /// Words a row.
  var stride: Int
  var width: Int32, height: Int32
  var color: UInt32
  /// The paint when it is not `color`: a color a pixel.
  var shader: GradientShader?
  /// A rect clip in pixels (x0, y0, x1, y1).
  var rect: SIMD4<Double>?
  /// The columns wholly inside the rect clip (`Clip.inner`).
  var inner: (Int, Int)
  /// A clip's coverage over `box`, a byte a pixel.
  var mask: UnsafePointer<UInt8>?
  /// The pixels the clip reaches.
  var box: OutlineFiller.PixelBox
}

/// Where a clip's spans go: a byte a pixel over the box.
private struct MaskTarget: SpanSink {
  var emitted = false
  var bytes: UnsafeMutablePointer<UInt8>
  var box: OutlineFiller.PixelBox
}

/// Writes a row's spans' coverage into the mask.
private func writeSpans(
  _ y: Int32, _ count: Int32, _ spans: UnsafePointer<FT_Span>?, _ user: UnsafeMutableRawPointer?
) {
  guard let spans, let (target, y) = begin(user, y, as: MaskTarget.self) else { return }
  let box = target.box
  let row = target.bytes + (y - box.y0) * (box.x1 - box.x0)
  eachSpan(spans, count, within: box) { x, end, coverage in
    (row + (x - box.x0)).update(repeating: coverage, count: end - x)
  }
}

/// Blends a row's spans into the target, source over: the color scaled by
/// the span's coverage (and the clip's), then `s + d·(255 − sa)/255` per
/// component, each product rounded as pixman rounds it (`x·a/255` as
/// `(t + t/256) / 256` with `t = x·a + 128`), so that a covered pixel
/// holds what Cairo and the GPU write there.
private func blendSpans(
  _ y: Int32, _ count: Int32, _ spans: UnsafePointer<FT_Span>?, _ user: UnsafeMutableRawPointer?
) {
  guard let spans, let (target, y) = begin(user, y, as: SpanTarget.self) else { return }
  let box = target.box
  let row = target.pixels + y * target.stride
  let color = target.color
  // A rect clip: the row's height inside it.
  var rowShare = 1.0
  if let r = target.rect {
    rowShare = min(Double(y + 1), r.w) - max(Double(y), r.y)
    guard rowShare > 0 else { return }
  }
  let mask = target.mask.map { $0 + (y - box.y0) * (box.x1 - box.x0) - box.x0 }
  // A shader's colors for the row's spans at once, from the first to the
  // end of the last (an edge's spans are a pixel or two: one call, not one
  // each).
  var shaded: UnsafeMutablePointer<UInt32>?
  if let shader = target.shader, count > 0 {
    let first = max(Int(spans[0].x), box.x0)
    let last = spans[Int(truncatingIfNeeded: count) - 1]
    let end = min(Int(last.x) + Int(last.len), box.x1)
    if first < end { shaded = shader.shade(x: first, y: y, count: end - first) - first }
  }
  eachSpan(spans, count, within: box) { x, end, spanCoverage in
    let coverage = UInt32(spanCoverage)
    if let colors = shaded {
      // A color a pixel, times the span's coverage and the clip's.
      if let mask {
        for k in x..<end { blendOne(row + k, mul(coverage, UInt32(mask[k])), colors[k]) }
      } else if let r = target.rect {
        for k in x..<end {
          let inside = k >= target.inner.0 && k < target.inner.1
          let part = inside ? rowShare : share(k, r) * rowShare
          blendOne(row + k, part == 1 ? coverage : scaled(coverage, part), colors[k])
        }
      } else {
        blendColors(row + x, end - x, coverage, colors + x)
      }
    } else if let mask {
      // The span's coverage times the clip's, pixel by pixel.
      for k in x..<end {
        blend(row + k, 1, mul(coverage, UInt32(mask[k])), color)
      }
    } else if let r = target.rect {
      // Whole columns inside the rect take the row's share; the columns
      // its sides cut, their part of it too.
      let inner = target.inner
      for k in stride(from: x, to: min(end, inner.0), by: 1) {
        blend(row + k, 1, scaled(coverage, share(k, r) * rowShare), color)
      }
      let from = max(x, inner.0)
      let to = min(end, inner.1)
      if from < to {
        blend(row + from, to - from, rowShare == 1 ? coverage : scaled(coverage, rowShare), color)
      }
      for k in stride(from: max(x, inner.1, inner.0), to: end, by: 1) {
        blend(row + k, 1, scaled(coverage, share(k, r) * rowShare), color)
      }
    } else {
      blend(row + x, end - x, coverage, color)
    }
  }
}

/// The width of column `x` inside the rect (x0, y0, x1, y1).
@inline(__always)
private func share(_ x: Int, _ r: SIMD4<Double>) -> Double {
  max(min(Double(x + 1), r.z) - max(Double(x), r.x), 0)
}

/// A coverage byte times a share in [0, 1], rounded.
@inline(__always)
private func scaled(_ coverage: UInt32, _ share: Double) -> UInt32 {
  UInt32(clamping: min(Int(saturating: Double(coverage) * share + 0.5, rounding: .down), 255))
}

/// `n` pixels from `start` blended with `color` at `coverage`, source over.
@inline(__always)
private func blend(
  _ start: UnsafeMutablePointer<UInt32>, _ n: Int, _ coverage: UInt32, _ color: UInt32
) {
  guard coverage > 0, n > 0 else { return }
  if coverage == 255 && color >> 24 == 255 {
    // Eight words a store.
    let eight = SIMD8<UInt32>(repeating: color)
    var k = 0
    while k + 8 <= n {
      UnsafeMutableRawPointer(start + k).storeBytes(of: eight, as: SIMD8<UInt32>.self)
      k += 8
    }
    while k < n {
      start[k] = color
      k += 1
    }
    return
  }
  let source = coverage == 255 ? color : mul4(color, coverage)
  let keep = 255 - source >> 24
  if keep == 255 && source == 0 { return }
  var k = 0
  if n >= 8 {
    // Eight pixels at a time, a word a lane: the same products and sums.
    let s = SIMD8<UInt32>(repeating: source)
    let a = SIMD8<UInt32>(repeating: keep)
    while k + 8 <= n {
      over(UnsafeMutableRawPointer(start + k), s, a)
      k += 8
    }
  }
  while k < n {
    start[k] = add4(source, mul4(start[k], keep))
    k += 1
  }
}

/// Eight pixels at `raw` (a word a lane) blended with the source words
/// `s` keeping `a`/255 of each byte: `s + d·a/255`, the product rounded as
/// pixman rounds it, the sum saturated (`mul4` and `add4` on eight words:
/// 32-bit lanes, which the compiler keeps in vector registers, where
/// widening bytes to 16-bit lanes took a call per conversion).
@inline(__always)
private func over(_ raw: UnsafeMutableRawPointer, _ s: SIMD8<UInt32>, _ a: SIMD8<UInt32>) {
  let d = raw.loadUnaligned(as: SIMD8<UInt32>.self)
  raw.storeBytes(of: add4(s, mul4(d, a)), as: SIMD8<UInt32>.self)
}

/// `n` pixels from `start` blended with `colors` (a word each) at
/// `coverage`, source over: `blend`'s products, eight pixels a step.
@inline(__always)
private func blendColors(
  _ start: UnsafeMutablePointer<UInt32>, _ n: Int, _ coverage: UInt32,
  _ colors: UnsafePointer<UInt32>
) {
  guard coverage > 0 else { return }
  var k = 0
  let c = SIMD8<UInt32>(repeating: coverage)
  while k + 8 <= n {
    var s = UnsafeRawPointer(colors + k).loadUnaligned(as: SIMD8<UInt32>.self)
    if coverage < 255 { s = mul4(s, c) }
    over(UnsafeMutableRawPointer(start + k), s, 255 &- (s &>> 24))
    k += 8
  }
  while k < n {
    blendOne(start + k, coverage, colors[k])
    k += 1
  }
}

/// One pixel blended with `color` at `coverage`, source over.
@inline(__always)
private func blendOne(_ pixel: UnsafeMutablePointer<UInt32>, _ coverage: UInt32, _ color: UInt32) {
  guard coverage > 0 else { return }
  let source = coverage == 255 ? color : mul4(color, coverage)
  let keep = 255 - source >> 24
  if keep == 0 {
    pixel.pointee = source
  } else if source != 0 {
    pixel.pointee = add4(source, mul4(pixel.pointee, keep))
  }
}

/// A mask pixel's value (`maskMode`: 0 its alpha, 1 one minus it, 2 the
/// Rec. 709 luma of its premultiplied color in 256ths, 3 one minus that).
@inline(__always)
private func maskValue(_ m: UInt32, _ maskMode: Int) -> UInt32 {
  switch maskMode {
  case 0: return m >> 24
  case 1: return 255 - m >> 24
  default:
    let luma = min((54 * (m >> 16 & 255) + 183 * (m >> 8 & 255) + 19 * (m & 255) + 128) >> 8, 255)
    return maskMode == 2 ? luma : 255 - luma
  }
}

/// `maskValue` on eight pixels.
@inline(__always)
private func maskValues(_ m: SIMD8<UInt32>, _ maskMode: Int) -> SIMD8<UInt32> {
  let byte = SIMD8<UInt32>(repeating: 255)
  switch maskMode {
  case 0: return m &>> 24
  case 1: return byte &- (m &>> 24)
  default:
    // At most (256·255 + 128) >> 8 = 255: `maskValue`'s bound holds.
    let luma =
      (54 &* (m &>> 16 & byte) &+ 183 &* (m &>> 8 & byte) &+ 19 &* (m & byte) &+ 128) &>> 8
    return maskMode == 2 ? luma : byte &- luma
  }
}

/// `n` pixels of `from` blended into `into`, source over, each scaled by
/// `opacity`, by its `mask` pixel's value and by its `clip` byte (each
/// when given): `composite`'s products in its order, eight pixels a step.
@inline(__always)
private func compositeRun(
  _ into: UnsafeMutablePointer<UInt32>, _ from: UnsafePointer<UInt32>, _ n: Int,
  opacity: UInt32, mask: UnsafePointer<UInt32>?, maskMode: Int, clip: UnsafePointer<UInt8>?
) {
  var k = 0
  let o = SIMD8<UInt32>(repeating: opacity)
  while k + 8 <= n {
    // Eight transparent pixels (most of a group's box) are skipped: tested
    // as four words, since comparing the vectors goes lane by lane.
    let raw = UnsafeRawPointer(from + k)
    let any =
      raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
      | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    if any != 0 {
      let s = raw.loadUnaligned(as: SIMD8<UInt32>.self)
      var f = o
      if let mask {
        f = mul(
          f, maskValues(UnsafeRawPointer(mask + k).loadUnaligned(as: SIMD8<UInt32>.self), maskMode))
      }
      if let clip { f = mul(f, bytes(clip + k)) }
      let c = mul4(s, f)
      over(UnsafeMutableRawPointer(into + k), c, 255 &- (c &>> 24))
    }
    k += 8
  }
  while k < n {
    let color = from[k]
    if color != 0 {
      var factor = opacity
      if let mask { factor = mul(factor, maskValue(mask[k], maskMode)) }
      if let clip { factor = mul(factor, UInt32(clip[k])) }
      blendOne(into + k, factor, color)
    }
    k += 1
  }
}

/// Eight bytes from `p`, a word a lane (shifts of one load: a vector
/// conversion from bytes is a call per use here).
@inline(__always)
private func bytes(_ p: UnsafePointer<UInt8>) -> SIMD8<UInt32> {
  let v = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
  let lo = UInt32(truncatingIfNeeded: v)
  let hi = UInt32(truncatingIfNeeded: v >> 32)
  return SIMD8(
    lo & 255, lo >> 8 & 255, lo >> 16 & 255, lo >> 24,
    hi & 255, hi >> 8 & 255, hi >> 16 & 255, hi >> 24)
}

/// `mul` on eight lanes.
@inline(__always)
private func mul(_ x: SIMD8<UInt32>, _ a: SIMD8<UInt32>) -> SIMD8<UInt32> {
  let t = x &* a &+ 128
  return (t &+ (t &>> 8)) &>> 8
}

/// `x·a/255` rounded, for bytes.
@inline(__always)
private func mul(_ x: UInt32, _ a: UInt32) -> UInt32 {
  let t = x &* a &+ 128
  return (t &+ (t >> 8)) >> 8
}

/// Each of the four bytes of `p` times `a` / 255, rounded (pixman's
/// UN8x4_MUL_UN8).
@inline(__always)
private func mul4(_ p: UInt32, _ a: UInt32) -> UInt32 {
  func pair(_ x: UInt32) -> UInt32 {
    let t = x &* a &+ 0x0080_0080
    return ((t &+ ((t >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
  }
  return pair(p & 0x00ff_00ff) | pair((p >> 8) & 0x00ff_00ff) << 8
}

/// `mul4` on eight words.
@inline(__always)
private func mul4(_ p: SIMD8<UInt32>, _ a: SIMD8<UInt32>) -> SIMD8<UInt32> {
  let m = SIMD8<UInt32>(repeating: 0x00ff_00ff)
  let lo = p & m &* a &+ 0x0080_0080
  let hi = (p &>> 8) & m &* a &+ 0x0080_0080
  return ((lo &+ ((lo &>> 8) & m)) &>> 8) & m | (((hi &+ ((hi &>> 8) & m)) &>> 8) & m) &<< 8
}

/// `add4` on eight words.
@inline(__always)
private func add4(_ a: SIMD8<UInt32>, _ b: SIMD8<UInt32>) -> SIMD8<UInt32> {
  let m = SIMD8<UInt32>(repeating: 0x00ff_00ff)
  var lo = (a & m) &+ (b & m)
  lo |= 0x0100_0100 &- ((lo &>> 8) & m)
  var hi = ((a &>> 8) & m) &+ ((b &>> 8) & m)
  hi |= 0x0100_0100 &- ((hi &>> 8) & m)
  return lo & m | (hi & m) &<< 8
}

/// The four bytes of `a` and `b` added, each saturated at 255 (pixman's
/// UN8x4_ADD_UN8x4).
@inline(__always)
private func add4(_ a: UInt32, _ b: UInt32) -> UInt32 {
  func pair(_ x: UInt32, _ y: UInt32) -> UInt32 {
    var t = x &+ y
    t |= 0x0100_0100 &- ((t >> 8) & 0x00ff_00ff)
    return t & 0x00ff_00ff
  }
  return pair(a & 0x00ff_00ff, b & 0x00ff_00ff)
    | pair((a >> 8) & 0x00ff_00ff, (b >> 8) & 0x00ff_00ff) << 8
}
