import Foundation
import Lamina

/// How an image is sampled: Core Animation's filters per direction.
public struct SamplerKey: Hashable, Sendable {
  public var minification: CALayerContentsFilter
  public var magnification: CALayerContentsFilter

  package init(minification: CALayerContentsFilter, magnification: CALayerContentsFilter) {
    self.minification = minification
    self.magnification = magnification
  }
}

/// What a draw item fills its polygon with.
public enum Material: Equatable {
  /// A solid premultiplied color, computed without any texture.
  case solid
  /// An image, sampled with the given filters.
  case image(CGImage, SamplerKey)
  /// The texture of an offscreen group rendered earlier in the frame.
  case group(Int)
  /// A `CAGradientLayer`'s gradient, computed in the fragment shader.
  case gradient(GradientPaint)
  /// An offscreen group times its mask's alpha or luminance, or one minus
  /// either (group ids; `CALayer.maskMode`).
  case masked(Int, mask: Int, mode: CALayerMaskMode)
  /// The blurred alpha of an offscreen group, tinted (a shadow).
  case shadow(Int)
  /// A rasterized subtree's cached texture.
  case raster(RasterPass)
  /// The filtered rendering of an offscreen group (a layer's `filters`).
  case filtered(Int)
  /// What a `CAOpenGLLayer` drew into its framebuffer.
  case openGLLayer(GLLayerPass)
  /// A dma-buf frame, imported as a texture.
  case dmabuf(DMABufFrame)
  /// A `CAShapeLayer`'s fill or stroke, from a mesh kept on the GPU
  /// (`PathItems.swift`; the item's rect only bounds it).
  case path(PathPaint)

  public static func == (a: Material, b: Material) -> Bool {
    switch (a, b) {
    case (.solid, .solid): return true
    case (.image(let x, let s), .image(let y, let t)): return x === y && s == t
    case (.group(let x), .group(let y)): return x == y
    case (.gradient(let x), .gradient(let y)): return x == y
    case (.masked(let x, let m, let f), .masked(let y, let n, let g)):
      return x == y && m == n && f == g
    case (.shadow(let x), .shadow(let y)): return x == y
    case (.raster(let x), .raster(let y)): return x.key == y.key
    case (.filtered(let x), .filtered(let y)): return x == y
    case (.openGLLayer(let x), .openGLLayer(let y)): return x.key == y.key
    case (.dmabuf(let x), .dmabuf(let y)): return x == y
    case (.path(let x), .path(let y)): return x == y
    default: return false
    }
  }
}

/// One convex polygon of one layer, ready for the GPU: its corners in the
/// layer's own plane, the texture coordinates there, and the plane-to-target
/// homography that the frame builder computed.
///
/// An item is a value whose fields live in one shared box, copied only
/// when a copy is changed: draw lists copy items from layer to layer and
/// from frame to frame (see `RenderTree`) for the price of a reference.
/// Items stay the same from frame to frame while their layers do not
/// change: `serial` says so without comparing them.
public struct DrawItem {
  /// The fields. Reads are plain loads: a box is only written while it is
  /// not shared (`unique()`), so no access can overlap another.
  final class Storage {
    @exclusivity(unchecked) var material: Material
    @exclusivity(unchecked) var clippedPolygon: [CGPoint]?
    @exclusivity(unchecked) var rect: CGRect
    @exclusivity(unchecked) var uv: (u0: Float, v0: Float, u1: Float, v1: Float)
    @exclusivity(unchecked) var matrix: CATransform3D
    @exclusivity(unchecked) var bounds: PixelRect
    @exclusivity(unchecked) var layerName: String?
    @exclusivity(unchecked) var antialiased: Bool
    @exclusivity(unchecked) var clipPlanes: [SIMD3<Double>]
    @exclusivity(unchecked) var blend: BlendMode
    @exclusivity(unchecked) var edgeMask: UInt8
    @exclusivity(unchecked) var shape: ShapeEffect?
    @exclusivity(unchecked) var clip: ClipEffect?

    init(
      material: Material,
      clippedPolygon: [CGPoint]?,
      rect: CGRect,
      uv: (u0: Float, v0: Float, u1: Float, v1: Float),
      matrix: CATransform3D,
      bounds: PixelRect,
      layerName: String?,
      antialiased: Bool,
      clipPlanes: [SIMD3<Double>],
      blend: BlendMode,
      edgeMask: UInt8,
      shape: ShapeEffect?,
      clip: ClipEffect?
    ) {
      self.material = material
      self.clippedPolygon = clippedPolygon
      self.rect = rect
      self.uv = uv
      self.matrix = matrix
      self.bounds = bounds
      self.layerName = layerName
      self.antialiased = antialiased
      self.clipPlanes = clipPlanes
      self.blend = blend
      self.edgeMask = edgeMask
      self.shape = shape
      self.clip = clip
    }

    func copy() -> Storage {
      Storage(
        material: material,
        clippedPolygon: clippedPolygon,
        rect: rect,
        uv: uv,
        matrix: matrix,
        bounds: bounds,
        layerName: layerName,
        antialiased: antialiased,
        clipPlanes: clipPlanes,
        blend: blend,
        edgeMask: edgeMask,
        shape: shape,
        clip: clip)
    }
  }

  private var storage: Storage
  /// Kept beside the box: opacity changes it, and an item faded anew
  /// should not copy the box.
  private var storedColor: SIMD4<Float>
  private var storedSerial: UInt64
  /// The model layer that made the item (`ObjectIdentifier(layer.model())`),
  /// when a layer did: what the frame limits name as the layer that costs
  /// most. Not part of what is drawn.
  public internal(set) var source: ObjectIdentifier?

  /// The box, made unique before it is written; any change resets the serial.
  @inline(__always)
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    storedSerial = 0
    return storage
  }

  package init(
    material: Material,
    clippedPolygon: [CGPoint]? = nil,
    rect: CGRect,
    uv: (u0: Float, v0: Float, u1: Float, v1: Float),
    matrix: CATransform3D,
    color: SIMD4<Float>,
    bounds: PixelRect,
    layerName: String?,
    antialiased: Bool = true,
    clipPlanes: [SIMD3<Double>] = [],
    blend: BlendMode = .sourceOver,
    edgeMask: UInt8 = 0b1111,
    shape: ShapeEffect? = nil,
    clip: ClipEffect? = nil,
    serial: UInt64 = 0,
    source: ObjectIdentifier? = nil
  ) {
    storage = Storage(
      material: material,
      clippedPolygon: clippedPolygon,
      rect: rect,
      uv: uv,
      matrix: matrix,
      bounds: bounds,
      layerName: layerName,
      antialiased: antialiased,
      clipPlanes: clipPlanes,
      blend: blend,
      edgeMask: edgeMask,
      shape: shape,
      clip: clip)
    storedColor = color
    storedSerial = serial
    self.source = source
  }

  public var material: Material {
    get { storage.material }
    set { unique().material = newValue }
  }
  /// Where the layer crosses behind the eye: the visible part of `rect`
  /// (convex, in the layer's bounds space). Nil when all of `rect` is in front.
  public var clippedPolygon: [CGPoint]? {
    get { storage.clippedPolygon }
    set { unique().clippedPolygon = newValue }
  }
  /// The corners to draw: `clippedPolygon`, or `rect`'s four corners.
  public var polygon: [CGPoint] { clippedPolygon ?? EdgeGeometry.corners(rect) }
  /// The local rect whose corners map to `uv` (texture coordinates are
  /// interpolated linearly over it).
  public var rect: CGRect {
    get { storage.rect }
    set { unique().rect = newValue }
  }
  /// Texture coordinates of `rect`'s min and max corners.
  public var uv: (u0: Float, v0: Float, u1: Float, v1: Float) {
    get { storage.uv }
    set { unique().uv = newValue }
  }
  /// Maps the layer's plane to homogeneous target pixels (flattened).
  public var matrix: CATransform3D {
    get { storage.matrix }
    set { unique().matrix = newValue }
  }
  /// Premultiplied color, opacity included (the tint for images).
  public var color: SIMD4<Float> {
    get { storedColor }
    set {
      storedColor = newValue
      storedSerial = 0
    }
  }
  /// Pixels the polygon can touch, clipped to the target.
  public var bounds: PixelRect {
    get { storage.bounds }
    set { unique().bounds = newValue }
  }
  /// The layer that produced the item (for debugging and counts).
  public var layerName: String? {
    get { storage.layerName }
    set { unique().layerName = newValue }
  }
  /// Whether the item's edges are antialiased (layer edges are; the quads
  /// that composite offscreen passes pixel for pixel are not).
  public var antialiased: Bool {
    get { storage.antialiased }
    set { unique().antialiased = newValue }
  }
  /// Half-planes `a·x + b·y + c ≥ 0` in the layer's bounds space that cut
  /// the item (pieces of planes split by depth sorting). Layer edges keep
  /// their antialiasing; cut edges, shared by two pieces, get none.
  public var clipPlanes: [SIMD3<Double>] {
    get { storage.clipPlanes }
    set { unique().clipPlanes = newValue }
  }
  /// How the item combines with what is behind it.
  public var blend: BlendMode {
    get { storage.blend }
    set { unique().blend = newValue }
  }
  /// Which of `rect`'s edges (bits: minY, maxX, maxY, minX) get edge
  /// coverage; the others are inner seams (nine-slice) or left to `shape`.
  public var edgeMask: UInt8 {
    get { storage.edgeMask }
    set { unique().edgeMask = newValue }
  }
  /// Coverage from a rounded rect in the item's plane (see `Effects.swift`).
  public var shape: ShapeEffect? {
    get { storage.shape }
    set { unique().shape = newValue }
  }
  /// A clip evaluated per fragment (rounded or transformed `masksToBounds`).
  public var clip: ClipEffect? {
    get { storage.clip }
    set { unique().clip = newValue }
  }
  /// Identifies the item's value across frames: two items with the same
  /// nonzero serial are equal in every field, so what a renderer derived
  /// from one (its vertices) holds for the other. The frame builder gives
  /// each item it derives a new serial and keeps it while the item is
  /// reused; changing any field resets it to 0 (unknown).
  public var serial: UInt64 {
    get { storedSerial }
    set { storedSerial = newValue }
  }
  /// Identifies the item's fields other than `color` and `serial`: items
  /// with the same identity differ at most in color (a layer whose opacity
  /// changes keeps it). Valid while one of the items is held (the box
  /// lives as long as an item refers to it).
  public var geometryIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
  /// True when the item needs the effect vertex format and programs.
  package var hasEffects: Bool { storage.shape != nil || storage.clip != nil }

  /// Scales the item's color (and so its coverage) by an opacity.
  package mutating func multiplyOpacity(_ opacity: Float) { color *= opacity }
}

/// How an item's premultiplied color combines with the target.
public enum BlendMode: Hashable, Sendable {
  /// `src + dst × (1 − src.a)`.
  case sourceOver
  /// `src + dst` (emitter particles in `additive` render mode).
  case additive
  /// One of the W3C Compositing and Blending modes a `compositingFilter`
  /// names (`CIMultiplyBlendMode`, …), drawn with the GPU's advanced blend
  /// equations.
  case composite(String)
  /// A Porter–Duff operator (or another compositing formula that GL's
  /// blend functions compute): `xor`, `sourceIn`, `destOut`, ….
  case porterDuff(PorterDuff)
}

/// An offscreen pass: its commands are rendered into a texture covering
/// `bounds` (target pixels), which is then drawn at `opacity` in the parent.
public final class GroupPass {
  public let id: Int
  public let bounds: PixelRect
  public var opacity: Float
  public var commands: [DrawCommand]
  public let reason: String
  /// The model layer the pass is made for (`ObjectIdentifier(layer.model())`),
  /// when one is: what the frame limits name.
  public var source: ObjectIdentifier?
  /// Half-planes in target pixels that cut the composited group (depth sorting).
  public var clipPlanes: [SIMD3<Double>] = []
  /// A mask whose rendered alpha (same bounds) multiplies this group's.
  public var mask: GroupPass?
  /// What of the mask's rendering multiplies: its alpha, its luminance, or
  /// one minus either (`CALayer.maskMode`).
  public var maskMode = CALayerMaskMode.alpha
  /// Clip applied when compositing (target pixels → clip plane).
  public var clip: ClipEffect?
  /// When set, the group is not composited as it is: its alpha is blurred,
  /// tinted and drawn at `bounds` (see `Shadows.swift`).
  public var shadow: ShadowBlur?
  /// When set, the group's rendering is filtered before it is composited.
  public var filter: FilterChain?
  /// How the composited group combines with what is behind it.
  public var blend = BlendMode.sourceOver
  /// A layer's `backgroundFilters`: the group draws no commands of its own;
  /// what is already drawn behind its bounds (and `filter`'s reach around
  /// them) is captured when the renderer reaches it, filtered, and drawn
  /// back through `clip` (the layer's rounded bounds).
  public var backdrop = false

  package init(id: Int, bounds: PixelRect, opacity: Float, commands: [DrawCommand], reason: String) {
    self.id = id
    self.bounds = bounds
    self.opacity = opacity
    self.commands = commands
    self.reason = reason
  }

  /// A copy to change: groups may be shared by the commands of several
  /// frames (kept by the render tree), so frame building never changes a
  /// group it did not make itself just now. The copy keeps the id: it is
  /// the same rendering (depth sorting's pieces of one group share it).
  func copy() -> GroupPass {
    let copy = GroupPass(
      id: id, bounds: bounds, opacity: opacity, commands: commands, reason: reason)
    copy.source = source
    copy.clipPlanes = clipPlanes
    copy.mask = mask
    copy.maskMode = maskMode
    copy.clip = clip
    copy.shadow = shadow
    copy.filter = filter
    copy.blend = blend
    copy.backdrop = backdrop
    return copy
  }
}

/// One step of a frame, in painter's order.
public enum DrawCommand {
  case item(DrawItem)
  case group(GroupPass)

  /// The blend mode the command composites with, or nil for source-over.
  package var blendModeName: String? {
    switch self {
    case .item(let item): if case .composite(let name) = item.blend { return name }
    case .group(let group): if case .composite(let name) = group.blend { return name }
    }
    return nil
  }

  /// Pixels the command can touch.
  public var bounds: PixelRect {
    switch self {
    case .item(let item): return item.bounds
    case .group(let group): return group.bounds
    }
  }

  /// The command cut by half-planes given in another plane's coordinates;
  /// `toPlane` maps target pixels to that plane.
  func clipped(by halfPlanes: [SIMD3<Double>], targetToPlane: Homography) -> DrawCommand {
    switch self {
    case .item(var item):
      let toPlane = Homography(item.matrix).then(targetToPlane)
      item.clipPlanes += halfPlanes.map { toPlane.pullBack($0) }
      return .item(item)
    case .group(let group):
      let copy = group.copy()
      copy.clipPlanes += halfPlanes.map { targetToPlane.pullBack($0) }
      return .group(copy)
    }
  }

  /// True when the command uses a blend mode that reads what is behind it.
  var blendsWithBackdrop: Bool {
    switch self {
    case .item(let item): return item.blend.readsBackdrop
    case .group(let group): return group.blend.readsBackdrop
    }
  }

  /// Multiplies the command's straight colors by `tint` (straight RGBA):
  /// premultiplied, that is RGB by tint.rgb × tint.a and alpha by tint.a.
  mutating func multiplyColor(_ tint: SIMD4<Float>) {
    let factor = SIMD4(tint.x * tint.w, tint.y * tint.w, tint.z * tint.w, tint.w)
    switch self {
    case .item(var item):
      item.color *= factor
      self = .item(item)
    case .group(let group):
      // A group composites with one opacity; color tints go to its contents.
      let copy = group.copy()
      for i in copy.commands.indices { copy.commands[i].multiplyColor(tint) }
      self = .group(copy)
    }
  }

  /// Gives the items a new serial (groups' items included) where they
  /// have none: they were derived or changed since they last had one.
  mutating func assignSerials(_ last: inout UInt64) {
    var visited: Set<ObjectIdentifier> = []
    assignSerials(&last, visited: &visited)
  }

  /// Each group once: a group drawn from several places (nested shadows
  /// each draw their subtree) would make the walk exponential in the nesting.
  private mutating func assignSerials(_ last: inout UInt64, visited: inout Set<ObjectIdentifier>) {
    switch self {
    case .item(var item):
      guard item.serial == 0 else { return }
      last += 1
      item.serial = last
      self = .item(item)
    case .group(let group):
      guard visited.insert(ObjectIdentifier(group)).inserted else { return }
      // Groups are made or copied by the derivation that changes them.
      for i in group.commands.indices { group.commands[i].assignSerials(&last, visited: &visited) }
      if let mask = group.mask, visited.insert(ObjectIdentifier(mask)).inserted {
        for i in mask.commands.indices { mask.commands[i].assignSerials(&last, visited: &visited) }
      }
    }
  }

  mutating func multiplyOpacity(_ opacity: Float) {
    switch self {
    case .item(var item):
      item.multiplyOpacity(opacity)
      self = .item(item)
    case .group(let group):
      let copy = group.copy()
      copy.opacity *= opacity
      self = .group(copy)
    }
  }
}

/// Everything the GL backend needs to draw one frame: the target size, the
/// background, and the draw list.
public struct Frame {
  /// Target size in pixels.
  public var width: Int, height: Int
  /// Premultiplied background color.
  public var background: SIMD4<Float>
  public var commands: [DrawCommand]
  /// What building the frame took.
  public var stats = FrameBuildStats()

  /// Every item, groups included, depth first.
  public var allItems: [DrawItem] {
    var items: [DrawItem] = []
    func walk(_ commands: [DrawCommand]) {
      for command in commands {
        switch command {
        case .item(let item): items.append(item)
        case .group(let group): walk(group.commands)
        }
      }
    }
    walk(commands)
    return items
  }

  /// Every offscreen group, depth first.
  public var allGroups: [GroupPass] {
    var groups: [GroupPass] = []
    func walk(_ commands: [DrawCommand]) {
      for case .group(let group) in commands {
        groups.append(group)
        walk(group.commands)
      }
    }
    walk(commands)
    return groups
  }
}

/// Counts and timings of one frame's building (the `FrameBuilder`'s; what a
/// display presents is counted in `PresentationStatistics`).
public struct FrameBuildStats: Sendable {
  /// Planes depth-sorted in 3D contexts, and the pieces the sort produced.
  public var sortedPlanes = 0, sortedPieces = 0
  /// CPU time spent in depth sorting, in milliseconds.
  public var depthSortMilliseconds = 0.0
  /// Layer visits derived this frame, and visits whose commands were kept
  /// from an earlier frame (their subtrees are not walked at all).
  public var derivedLayers = 0, reusedLayers = 0
  /// Layer visits whose drawing was kept and only their new opacity applied.
  public var fadedLayers = 0

  public init() {}
}

/// The old name of `FrameBuildStats`.
@available(*, deprecated, renamed: "FrameBuildStats")
public typealias FrameStats = FrameBuildStats

/// A `CAOpenGLLayer` to draw before the frame: the layer, its size in
/// pixels, the time, and whether its content must be drawn again.
public final class GLLayerPass {
  /// The model layer's serial (`CALayer.serial`): its framebuffer is kept
  /// across frames under it.
  public let key: UInt64
  package let layer: CAOpenGLLayer
  /// The model layer (the framebuffer's owner).
  package let model: CALayer
  package let width: Int, height: Int
  package let time: Double
  package let generation: Int

  init(layer: CAOpenGLLayer, width: Int, height: Int, time: Double) {
    self.layer = layer
    model = layer.model()
    key = model.serial
    self.width = width
    self.height = height
    self.time = time
    generation = layer.drawGeneration
  }
}
