import CCairo
import Foundation
import Lamina

/// A Cairo image surface (premultiplied ARGB32) that becomes a `CGImage`.
final class CairoBitmap {
  let surface: OpaquePointer
  let context: OpaquePointer
  let width: Int, height: Int

  /// A transparent bitmap; nil when Cairo cannot allocate it.
  init?(width: Int, height: Int) {
    guard width > 0, height > 0,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
    else { return nil }
    guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      return nil
    }
    self.surface = surface
    self.context = context
    self.width = width
    self.height = height
    block = nil
  }

  /// A bitmap drawn into `bytes` (`width`×`height` words, rows without a
  /// gap, all zero: transparent), which must outlive it; nil when Cairo
  /// refuses it. `block` (the block `bytes` are in) is given back to its
  /// scratch when the bitmap goes, or at once when there is none.
  init?(
    drawingInto bytes: UnsafeMutableRawPointer, width: Int, height: Int,
    block: (scratch: PathRunScratch, block: PathRunScratch.Block)? = nil
  ) {
    guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide,
      let surface = cairo_image_surface_create_for_data(
        bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
        Int32(height), Int32(width * 4)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
    else {
      if let (scratch, block) = block { scratch.giveBack(block) }
      return nil
    }
    guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      if let (scratch, block) = block { scratch.giveBack(block) }
      return nil
    }
    self.surface = surface
    self.context = context
    self.width = width
    self.height = height
    self.block = block
  }

  /// A transparent bitmap in a block of `scratch`, given back when the
  /// bitmap goes; nil when Cairo refuses it.
  convenience init?(width: Int, height: Int, scratch: PathRunScratch) {
    guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else { return nil }
    let block = scratch.block(count: width * height * 4)
    self.init(drawingInto: block.bytes, width: width, height: height, block: (scratch, block))
  }

  /// The longest side a bitmap over memory of its own may have (as an image).
  static let maxSide = 1 << 16

  /// The scratch block the pixels are in, given back when the bitmap goes.
  private let block: (scratch: PathRunScratch, block: PathRunScratch.Block)?

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
    if let (scratch, block) = block { scratch.giveBack(block) }
  }

  /// The pixels (premultiplied ARGB words, `stride` bytes a row) for
  /// drawing into them directly, Cairo's drawing so far flushed into them;
  /// `markDirty()` after.
  func pixels() -> UnsafeMutablePointer<UInt32>? {
    cairo_surface_flush(surface)
    return cairo_image_surface_get_data(surface).map {
      UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt32.self)
    }
  }

  /// Bytes a row of `pixels()`.
  var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

  /// Tells Cairo that the pixels were written directly.
  func markDirty() { cairo_surface_mark_dirty(surface) }

  /// The pixels as a `CGImage` (straight RGBA). Un-premultiplying 8-bit
  /// values and premultiplying them again on upload gives back the same
  /// values, so nothing is lost on the way to the GPU.
  func makeImage() -> CGImage? { converted(Self.rgba) }

  /// The pixels composited over `background` (premultiplied RGBA bytes) as
  /// the GPU blends premultiplied source over (one, one minus source
  /// alpha, in 8 bits): each component `s + d·(255 − sa)/255`, the product
  /// rounded to the nearest, the sum saturated.
  func makeImage(over background: SIMD4<UInt8>) -> CGImage? { converted(Self.over(background)) }

  /// A Cairo pixel composited over `background` as `makeImage(over:)`
  /// does, as an RGBA word, or (`native`) as Cairo's own word (0xAARRGGBB:
  /// BGRA bytes read little-endian).
  @inline(__always)
  private static func over(
    _ background: SIMD4<UInt8>, native: Bool = false
  ) -> (UInt32) -> UInt32 {
    let d = SIMD4<UInt32>(truncatingIfNeeded: background)
    func word(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
      (native ? b | r << 16 : r | b << 16) | g << 8 | a << 24
    }
    // The background as a word.
    let clear = word(d.x, d.y, d.z, d.w)
    // Rounded x·y/255 (exact for 8-bit x and y).
    func mul(_ x: UInt32, _ y: UInt32) -> UInt32 {
      let t = x * y + 128
      return (t + (t >> 8)) >> 8
    }
    return { p in
      let a = p >> 24
      // Most pixels are untouched or covered: the background, or the pixel.
      if a == 0 && p == 0 { return clear }
      if a == 255 { return native ? p : Self.rgba(p) }
      let k = 255 - a
      let r = min((p >> 16 & 255) + mul(d.x, k), 255)
      let g = min((p >> 8 & 255) + mul(d.y, k), 255)
      let b = min((p & 255) + mul(d.z, k), 255)
      return word(r, g, b, min(a + mul(d.w, k), 255))
    }
  }

  /// Cairo's ARGB32 pixel (premultiplied, one native-endian word, A in the
  /// top byte) as the word of its RGBA bytes read little-endian
  /// (0xAABBGGRR): red and blue swap places.
  static func rgba(_ p: UInt32) -> UInt32 {
    (p & 0xff00_ff00) | (p >> 16 & 0xff) | (p & 0xff) << 16
  }

  /// The pixels, each turned by `word` into an RGBA word (0xAABBGGRR),
  /// stored little-endian on any machine, as a `CGImage`.
  @inline(__always)
  private func converted(_ word: (UInt32) -> UInt32) -> CGImage? {
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface) else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface))
    let rgba = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      out.baseAddress!.withMemoryRebound(to: UInt32.self, capacity: width * height) { words in
        convert(from: data, stride: stride, into: words, word)
      }
      count = width * height * 4
    }
    return CGImage(width: width, height: height, premultipliedRGBA: rgba)
  }

  /// The pixels of rows `stride` bytes apart at `data`, each turned by
  /// `word` into an RGBA word stored little-endian, written `width` words
  /// a row from `words` (which may be `data` itself, rows without a gap).
  @inline(__always)
  private func convert(
    from data: UnsafeMutablePointer<UInt8>, stride: Int, into words: UnsafeMutablePointer<UInt32>,
    within box: OutlineFiller.PixelBox? = nil, _ word: (UInt32) -> UInt32
  ) {
    let box = box ?? OutlineFiller.PixelBox(x0: 0, y0: 0, x1: width, y1: height)
    for y in box.y0..<box.y1 {
      let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      let into = words + y * width
      for x in box.x0..<box.x1 { into[x] = word(row[x]).littleEndian }
    }
  }

  /// Turns the pixels, in place, into premultiplied RGBA bytes, as
  /// `makeImage()` (or, with a background, `makeImage(over:)`) gives them;
  /// for a bitmap drawn into memory whose rows have no gap
  /// (`init(drawingInto:width:height:)`). Cairo is done with them after.
  func finishAsRGBA(over background: SIMD4<UInt8>?) { finish(over: background, order: .rgba) }

  /// `finishAsRGBA(over:)`, the bytes in `order`: in BGRA, Cairo's own
  /// on a little-endian machine, only a background is composited under;
  /// only the pixels `within` a box when there is one (the rest finished
  /// before).
  func finish(
    over background: SIMD4<UInt8>?, order: TexelOrder, within box: OutlineFiller.PixelBox? = nil
  ) {
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface),
      Int(cairo_image_surface_get_stride(surface)) == width * 4
    else { return }
    let words = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
    let box = box ?? OutlineFiller.PixelBox(x0: 0, y0: 0, x1: width, y1: height)
    // `convert` stores words little-endian: Cairo's own word is BGRA then.
    guard let background else {
      if order == .rgba {
        convert(from: data, stride: width * 4, into: words, within: box, Self.rgba)
      } else if UInt32(1).littleEndian != 1 {
        convert(from: data, stride: width * 4, into: words, within: box) { $0 }
      }
      return
    }
    convert(
      from: data, stride: width * 4, into: words, within: box,
      Self.over(background, native: order == .bgra))
  }
}

extension CGPath {
  /// Adds the path to a Cairo context's current path (user space).
  /// With `skippingMove`, a leading move is left out (the path continues
  /// from Cairo's current point).
  func addTo(_ cr: OpaquePointer, skippingMove: Bool = false) {
    var last = CGPoint.zero
    for (index, element) in elements.enumerated() {
      switch element {
      case .moveTo(let p):
        if !(skippingMove && index == 0) { cairo_move_to(cr, p.x, p.y) }
        last = p
      case .lineTo(let p):
        cairo_line_to(cr, p.x, p.y)
        last = p
      case .quadCurveTo(let p, let c):
        // The cubic with the same curve: control points 2/3 of the way to c.
        let c1 = CGPoint(x: last.x + 2 / 3 * (c.x - last.x), y: last.y + 2 / 3 * (c.y - last.y))
        let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
        last = p
      case .curveTo(let p, let c1, let c2):
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
        last = p
      case .closeSubpath:
        cairo_close_path(cr)
        var point = (x: 0.0, y: 0.0)
        cairo_get_current_point(cr, &point.x, &point.y)
        last = CGPoint(x: point.x, y: point.y)
      }
    }
  }
}
