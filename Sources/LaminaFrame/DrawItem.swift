import Foundation
import Lamina

/// One convex polygon of one layer, ready for the GPU: its corners in the
/// layer's own plane, the texture coordinates there, and the plane-to-target
/// homography that the frame builder computed.
///
/// An item is a value whose fields live in one shared box, copied only
/// when a copy is changed: draw lists copy items from layer to layer and
/// from frame to frame (see `RenderTree`) for the price of a reference.
/// Items stay the same from frame to frame while their layers do not
/// change: `serial` says so without comparing them.
package struct DrawItem {
  /// The fields. Reads are plain loads: a box is only written while it is
  /// not shared (`unique()`), so no access can overlap another.
  @usableFromInline final class Storage {
    @usableFromInline @exclusivity(unchecked) var material: Material
    @usableFromInline @exclusivity(unchecked) var clippedPolygon: [CGPoint]?
    @usableFromInline @exclusivity(unchecked) var rect: CGRect
    @usableFromInline @exclusivity(unchecked) var uv: (u0: Float, v0: Float, u1: Float, v1: Float)
    @usableFromInline @exclusivity(unchecked) var matrix: CATransform3D
    @usableFromInline @exclusivity(unchecked) var bounds: PixelRect
    @usableFromInline @exclusivity(unchecked) var layerName: String?
    @usableFromInline @exclusivity(unchecked) var antialiased: Bool
    @usableFromInline @exclusivity(unchecked) var clipPlanes: [SIMD3<Double>]
    @usableFromInline @exclusivity(unchecked) var blend: BlendMode
    @usableFromInline @exclusivity(unchecked) var edgeMask: UInt8
    @usableFromInline @exclusivity(unchecked) var shape: ShapeEffect?
    @usableFromInline @exclusivity(unchecked) var clip: ClipEffect?

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

    @usableFromInline func copy() -> Storage {
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

  @usableFromInline var storage: Storage
  /// Kept beside the box: opacity changes it, and an item faded anew
  /// should not copy the box.
  @usableFromInline var storedColor: SIMD4<Float>
  @usableFromInline var storedSerial: UInt64
  /// The model layer that made the item (`ObjectIdentifier(layer.model())`),
  /// when a layer did: what the frame limits name as the layer that costs
  /// most. Not part of what is drawn.
  package internal(set) var source: ObjectIdentifier?

  /// The box, made unique before it is written; any change resets the serial.
  @inlinable
  mutating func unique() -> Storage {
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

  @inlinable package var material: Material {
    get { storage.material }
    set { unique().material = newValue }
  }
  /// Where the layer crosses behind the eye: the visible part of `rect`
  /// (convex, in the layer's bounds space). Nil when all of `rect` is in front.
  @inlinable package var clippedPolygon: [CGPoint]? {
    get { storage.clippedPolygon }
    set { unique().clippedPolygon = newValue }
  }
  /// The corners to draw: `clippedPolygon`, or `rect`'s four corners.
  package var polygon: [CGPoint] { clippedPolygon ?? EdgeGeometry.corners(rect) }
  /// The local rect whose corners map to `uv` (texture coordinates are
  /// interpolated linearly over it).
  @inlinable package var rect: CGRect {
    get { storage.rect }
    set { unique().rect = newValue }
  }
  /// Texture coordinates of `rect`'s min and max corners.
  @inlinable package var uv: (u0: Float, v0: Float, u1: Float, v1: Float) {
    get { storage.uv }
    set { unique().uv = newValue }
  }
  /// Maps the layer's plane to homogeneous target pixels (flattened).
  @inlinable package var matrix: CATransform3D {
    get { storage.matrix }
    set { unique().matrix = newValue }
  }
  /// Premultiplied color, opacity included (the tint for images).
  @inlinable package var color: SIMD4<Float> {
    get { storedColor }
    set {
      storedColor = newValue
      storedSerial = 0
    }
  }
  /// Pixels the polygon can touch, clipped to the target.
  @inlinable package var bounds: PixelRect {
    get { storage.bounds }
    set { unique().bounds = newValue }
  }
  /// The layer that produced the item (for debugging and counts).
  @inlinable package var layerName: String? {
    get { storage.layerName }
    set { unique().layerName = newValue }
  }
  /// Whether the item's edges are antialiased (layer edges are; the quads
  /// that composite offscreen passes pixel for pixel are not).
  @inlinable package var antialiased: Bool {
    get { storage.antialiased }
    set { unique().antialiased = newValue }
  }
  /// Half-planes `a·x + b·y + c ≥ 0` in the layer's bounds space that cut
  /// the item (pieces of planes split by depth sorting). Layer edges keep
  /// their antialiasing; cut edges, shared by two pieces, get none.
  @inlinable package var clipPlanes: [SIMD3<Double>] {
    get { storage.clipPlanes }
    set { unique().clipPlanes = newValue }
  }
  /// How the item combines with what is behind it.
  @inlinable package var blend: BlendMode {
    get { storage.blend }
    set { unique().blend = newValue }
  }
  /// Which of `rect`'s edges (bits: minY, maxX, maxY, minX) get edge
  /// coverage; the others are inner seams (nine-slice) or left to `shape`.
  @inlinable package var edgeMask: UInt8 {
    get { storage.edgeMask }
    set { unique().edgeMask = newValue }
  }
  /// Coverage from a rounded rect in the item's plane (see `Effects.swift`).
  @inlinable package var shape: ShapeEffect? {
    get { storage.shape }
    set { unique().shape = newValue }
  }
  /// A clip evaluated per fragment (rounded or transformed `masksToBounds`).
  @inlinable package var clip: ClipEffect? {
    get { storage.clip }
    set { unique().clip = newValue }
  }
  /// Identifies the item's value across frames: two items with the same
  /// nonzero serial are equal in every field, so what a renderer derived
  /// from one (its vertices) holds for the other. The frame builder gives
  /// each item it derives a new serial and keeps it while the item is
  /// reused; changing any field resets it to 0 (unknown).
  @inlinable
  package var serial: UInt64 {
    get { storedSerial }
    set { storedSerial = newValue }
  }
  /// Identifies the item's fields other than `color` and `serial`: items
  /// with the same identity differ at most in color (a layer whose opacity
  /// changes keeps it). Valid while one of the items is held (the box
  /// lives as long as an item refers to it).
  @inlinable
  package var geometryIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
  /// Whether the planner prepares a pass for the item before drawing it (a
  /// raster or a `CAOpenGLLayer`). Asked of every item, these questions
  /// copy nothing: across the module boundary `material` and `blend` are
  /// calls that return copies of their payloads.
  package var needsPreparation: Bool {
    switch storage.material {
    case .raster, .openGLLayer: return true
    default: return false
    }
  }
  /// Whether the item is a path (a shape layer's fill or stroke).
  package var isPath: Bool {
    if case .path = storage.material { return true }
    return false
  }
  /// Whether the item blends with a blend mode (`BlendMode.composite`).
  package var hasCompositeBlend: Bool {
    if case .composite = storage.blend { return true }
    return false
  }
  /// True when the item needs the effect vertex format and programs.
  @inlinable
  package var hasEffects: Bool { storage.shape != nil || storage.clip != nil }

  /// Scales the item's color (and so its coverage) by an opacity.
  @inlinable
  package mutating func multiplyOpacity(_ opacity: Float) { color *= opacity }
}
