import Foundation

/// The limits that untrusted input meets before any work starts: scene
/// files, their images and the command's flags. A server that renders what
/// its users send stays within bounded time and memory because each of these
/// is checked before the work it bounds, and exceeding one is an error that
/// names the file, the JSON path and the limit (never a crash, a hang or a
/// half-written output). `docs/limits.md` lists each with its message.
public enum Limits {
  // MARK: Files and canvas

  /// The largest scene file, in bytes (a 10,000-layer scene is about 2.5 MB).
  public static let maxSceneFileBytes = 32 << 20
  /// The largest canvas side, in points.
  public static let maxCanvasSide: CGFloat = 16384
  /// The largest canvas scale (pixels per point).
  public static let maxCanvasScale: CGFloat = 8
  /// The largest canvas side, in pixels (side × scale).
  public static let maxCanvasPixelSide: CGFloat = 32768
  /// The largest canvas, in pixels (width × height × scale²): 8192 × 8192,
  /// 256 MiB of RGBA for each image a frame reads back.
  public static let maxCanvasPixels = 1 << 26

  // MARK: Numbers

  /// The largest magnitude of any number in a scene file that no tighter
  /// limit covers (times, speeds, angles, velocities, …).
  public static let maxMagnitude: Double = 1e9
  /// The largest magnitude of a coordinate, in points: positions, bounds
  /// origins, offsets, `zPosition`, path coordinates and arc radii.
  public static let maxCoordinate: CGFloat = 1e7
  /// The largest layer bounds side, in points (also `cornerRadius` and
  /// `borderWidth`, `lineWidth`).
  public static let maxLayerSide: CGFloat = 1e6
  /// The largest magnitude of an entry of a transform matrix (after a
  /// transform's steps are applied: `{ "perspective": 1e-300 }` is refused).
  public static let maxTransformEntry: CGFloat = 1e7
  /// `contentsScale`, `rasterizationScale` and emitter cell
  /// `contentsScale`: from this to its inverse.
  public static let minContentsScale: CGFloat = 1.0 / 1024

  // MARK: The layer tree

  /// The most layers a frame draws once replicators and emitters are
  /// expanded (each instance of each replicated layer and each particle alive
  /// counts as one).
  public static let maxLayers = 200_000
  /// The deepest nesting of layers (sublayers and masks).
  public static let maxNestingDepth = 100
  /// The largest `instanceCount` of one replicator.
  public static let maxInstanceCount = 100_000
  /// The most replicator instances in the whole tree, multiplied through
  /// nesting (a replicator of 1000 inside one of 1000 makes 1,000,000).
  public static let maxInstances = 100_000
  /// The most emitter particles that can be alive at once in the whole tree
  /// (birth rate × longest life, through nested cells and replicators).
  public static let maxParticles = 100_000
  /// The most filters in one layer's `filters` (and in its `backgroundFilters`).
  public static let maxFiltersPerLayer = 16
  /// The largest blur radius, in points: `shadowRadius` and a
  /// `CIGaussianBlur`'s `inputRadius`.
  public static let maxBlurRadius: CGFloat = 500
  /// The most offscreen passes in one frame (groups, masks, filters,
  /// shadows that are blurred offscreen, rasterized layers).
  public static let maxOffscreenPasses = 1024
  /// The most pixels of offscreen targets in one frame (512 MiB of RGBA).
  public static let maxOffscreenPixels = 1 << 27
  /// The most filtered pixels in one frame: each filter stage (a blur, a
  /// color matrix) counts the pixels of the group it runs on, a blurred
  /// shadow its blur canvas. Bounds the GPU work that the counts and sizes
  /// above still allow (sixty full-canvas layers of sixteen filters each).
  public static let maxFilteredPixels = 1 << 28
  /// The most pixels one frame fills: every item's covered pixels, every
  /// offscreen pass's once more where it is drawn back, and the filtered
  /// pixels (pixels covered × passes and filter stages). 2³³ is about 2,000
  /// layers covering a 2048² canvas, some seconds of software rendering
  /// (llvmpipe fills about a billion pixels a second on two cores); the
  /// benchmark scenes, reftests and examples fill at most 1/16 of it
  /// (`FrameLimitsTests`).
  public static let maxFramePixelFill = 1 << 33
  /// The most draw items in one frame.
  public static let maxDrawItems = 1_000_000
  /// The longest a frame's drawing may be predicted to take, in seconds, on
  /// the slowest renderer Lamina runs on (Mesa's llvmpipe at one thread):
  /// the frame time budget, so that a frame that would run out of it is
  /// refused before drawing instead of after 20 s. The prediction
  /// (`FrameCost`) is counted from the built frame (items, pixels covered
  /// by each material, passes, blur radii, path triangles) and errs high.
  public static let maxPredictedFrameSeconds: Double = frameTimeBudget

  // MARK: Content

  /// The most elements (moves, lines, curves) in one path, an SVG arc
  /// counting as the curves it becomes (filling a self-intersecting path of
  /// this many takes about two seconds on the CPU).
  public static let maxPathElements = 20_000
  /// The most path elements of all shape layers and shadow paths together
  /// (a replicated layer's path is drawn once; the shapes benchmark has 1,250).
  public static let maxPathElementsPerFrame = 100_000
  /// The most numbers in a `lineDashPattern`.
  public static let maxDashPatternLength = 256
  /// The most dashes along one stroked path (its length over the pattern's).
  public static let maxDashSegments = 100_000
  /// The most colors (and locations) of a gradient.
  public static let maxGradientStops = 1024
  /// The most values (and key times) of one keyframe animation.
  public static let maxKeyframes = 10_000
  /// The most animations on one layer.
  public static let maxAnimationsPerLayer = 256
  /// The most characters (Unicode scalars, each at most one glyph) of one
  /// text layer.
  public static let maxGlyphsPerTextLayer = 20_000
  /// The most characters of all text layers together, replicated ones
  /// counted per instance (the text benchmark has 9,762; laying out and
  /// drawing 200,000 takes seconds on a software rasterizer).
  public static let maxGlyphsPerFrame = 200_000
  /// The largest `fontSize`, in points.
  public static let maxFontSize: CGFloat = 2048

  // MARK: Images

  /// The largest image width or height, in pixels (also bounded by the
  /// GPU's texture size).
  public static let maxImageSide = 16384
  /// The most pixels of one image (64 Mpx, 256 MiB decoded).
  public static let maxImagePixels = 1 << 26
  /// The most bytes of decoded pixels one scene may use (512 MiB); the
  /// default budget of an `ImageCache`.
  public static let maxDecodedImageBytes = 1 << 29
  /// The largest image file, in bytes (read whole before it is decoded).
  public static let maxImageFileBytes = 256 << 20
  /// The most scans of a progressive JPEG (real files have about ten; each
  /// scan is a pass over the whole image).
  public static let maxJPEGScans = 100

  // MARK: Caches

  /// The most bytes one renderer keeps across frames, its CPU and GPU
  /// caches together (1.5 GiB): drawn bitmaps, path meshes, tiles and
  /// glyphs on the CPU, textures and kept targets on the GPU, each cache a
  /// share of it (see `RenderCaches`); least recently used out first.
  /// `Renderer(cacheBytes:)` sets another.
  public static let maxCacheBytes = 1536 << 20

  // MARK: Time

  /// The longest a frame may take, in seconds, before the command gives up
  /// with an error (`LAMINA_FRAME_BUDGET` overrides it).
  public static let frameTimeBudget: Double = 20
  /// The largest `--time` and `--start`, in seconds.
  public static let maxTime: Double = 1e9
}

/// Input that exceeds one of the `Limits`: what was counted, how much was
/// found and the limit's name and value. The scene loader turns it into a
/// `SceneError` that also names the file and the JSON path.
public struct LimitExceeded: Error, Equatable, CustomStringConvertible {
  /// What was counted ("replicator instances after expansion").
  public let what: String
  /// What was found (a count or a size).
  public let found: String
  /// The limit's value, as written in messages.
  public let limit: String
  /// The name of the constant in `Limits` (`maxInstances`).
  public let name: String

  public init(what: String, found: String, limit: String, name: String) {
    self.what = what
    self.found = found
    self.limit = limit
    self.name = name
  }

  public init(what: String, found: Int, limit: Int, name: String) {
    self.init(what: what, found: String(found), limit: String(limit), name: name)
  }

  /// What to change to stay within the limit, when a number can say it
  /// ("lengths adding up to at least 0.02 points keep the dashes within it").
  public var advice: String?

  public var description: String {
    "\(what): \(found), over the limit of \(limit) (\(name))" + (advice.map { "; \($0)" } ?? "")
  }
}
