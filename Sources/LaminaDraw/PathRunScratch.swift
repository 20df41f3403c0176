import Foundation
import Lamina

/// The memory runs are drawn into, kept from one frame to the next
/// (`PathRunRasterizer.render(_:width:height:background:scratch:)`).
///
/// A frame of animated paths draws its runs again every frame, into a
/// bitmap of the run and one of each group drawn whole. Made fresh, every
/// such bitmap is memory the system maps and then faults in page by page
/// on first write: 11 % of a frame of 5344-honey-sack-hud on one core, as
/// much as Cairo's own drawing. Kept here, the same pages are cleared and
/// drawn again.
///
/// - Group bitmaps come from blocks taken for a group and given back when
///   it is blended; a block no frame used since the last end of a frame
///   is freed then.
/// - A run's bitmap is the pixel array of the image it becomes. The cache
///   of runs hands the images it drops to `endFrame(recycling:)`; a later
///   run takes an image's pixels once nothing else holds the image (a
///   plan may still hold it for a while: then its pixels are not touched
///   and the run gets fresh memory).
///
/// At most `maxBytes` are kept, free, between frames. One renderer uses a
/// scratch, on one thread at a time.
public final class PathRunScratch {
  /// Memory for a group's bitmap.
  final class Block {
    let bytes: UnsafeMutableRawPointer
    let count: Int
    /// Whether a frame took it since the last `endFrame(recycling:)`.
    var used = true

    init(count: Int) {
      self.count = count
      bytes = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
    }

    deinit { bytes.deallocate() }
  }

  /// Blocks not in use.
  private var free: [Block] = []
  /// Images dropped by the run cache, whose pixels a run may take.
  private var images: [CGImage] = []
  /// The most bytes kept free between frames (blocks and images each).
  package static let maxBytes = 64 << 20

  public init() {}

  /// A block of at least `count` bytes, all zero: a free one (the smallest
  /// that is large enough), else a new one.
  func block(count: Int) -> Block {
    var best: Int?
    for (i, b) in free.enumerated() where b.count >= count {
      if best.map({ free[$0].count > b.count }) ?? true { best = i }
    }
    let block = best.map { free.remove(at: $0) } ?? Block(count: count)
    block.used = true
    block.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    return block
  }

  /// `block` free again.
  func giveBack(_ block: Block) { free.append(block) }

  /// `count` bytes, all zero, as an array: the pixels of a recycled image
  /// when one is free and large enough, else new ones.
  func pixels(count: Int) -> [UInt8] {
    while !images.isEmpty {
      guard var pixels = Self.takePixels(&images), pixels.capacity >= count else {
        continue
      }
      // The bytes kept are cleared, the ones added are zero already.
      if pixels.count > count { pixels.removeLast(pixels.count - count) }
      let kept = pixels.count
      pixels.withUnsafeMutableBytes {
        _ = $0.prefix(kept).initializeMemory(as: UInt8.self, repeating: 0)
      }
      if kept < count { pixels.append(contentsOf: repeatElement(0, count: count - kept)) }
      recycled += 1
      return pixels
    }
    // New memory, a quarter larger than the largest run asked for (a run
    // whose box grows frame after frame would otherwise find every
    // recycled array a little too small).
    largest = max(largest, count)
    return [UInt8](unsafeUninitializedCapacity: largest + largest / 4) { bytes, initialized in
      _ = bytes.baseAddress!.initialize(repeating: 0, count: count)
      initialized = count
    }
  }

  /// The most bytes a run asked for.
  private var largest = 0

  /// The pixels of the last of `images`, taken off, when nothing else
  /// holds it, nil otherwise. The image goes when this returns (not
  /// inlined: in the caller the optimizer may keep it alive to the end of
  /// the caller's scope), so the array's storage is then the caller's
  /// alone and writing it copies nothing.
  @inline(never)
  private static func takePixels(_ images: inout [CGImage]) -> [UInt8]? {
    var held = images.popLast()
    return takePixels(of: &held)
  }

  /// The pixels of `image`, which is taken (nil after), when nothing else
  /// holds it; nil, `image` left as it was, otherwise (as
  /// `takePixels(_:)`).
  @inline(never)
  package static func takePixels(of image: inout CGImage?) -> [UInt8]? {
    guard isKnownUniquelyReferenced(&image) else { return nil }
    return image.take()?.premultiplied
  }

  /// The pixels of a bitmap of the last frame that the next run is drawn
  /// into again (`PathRunCache`), held here alone until the rasterizer
  /// takes them (`takeEarlier`): a second holder would make writing them
  /// copy them.
  package var earlier: [UInt8]?

  /// `earlier`, taken (nil after).
  package func takeEarlier() -> [UInt8]? { earlier.take() }

  /// Runs drawn into a recycled image's pixels (for tests).
  package private(set) var recycled = 0

  /// Ends a frame: frees the blocks no frame used since the last call and
  /// keeps at most `maxBytes` of the others; `dropped` (the images the run
  /// cache dropped) replace the images recycled before, not taken.
  package func endFrame(recycling dropped: [CGImage]) {
    free.removeAll { !$0.used }
    for b in free { b.used = false }
    free.sort { $0.count < $1.count }
    var kept = 0
    free.removeAll { b in
      kept += b.count
      return kept > Self.maxBytes
    }
    kept = 0
    images = dropped.filter { image in
      kept += image.width * image.height * 4
      return kept <= Self.maxBytes
    }
  }

  /// Blocks kept free and images kept to recycle (for tests).
  package var held: (blocks: Int, images: Int) { (free.count, images.count) }
}
