import Foundation
import Lamina
import LaminaDraw

/// What a path item draws: a fill mesh, or a stroke mesh with this
/// frame's stroke parameters. Equal when they draw the same mesh the same
/// way (meshes compare by identity: the cache gives one per path and style;
/// they hash by serial, which a later mesh cannot share with a freed one,
/// since the hash keys cached rasters and masks across frames).
package struct PathPaint: Hashable {
  package enum Geometry {
    case fill(FillMesh)
    case stroke(StrokeMesh, StrokeParameters)
  }

  package let geometry: Geometry
  /// The shape layer's path and style the mesh was made from (its fill
  /// or its stroke, as `geometry` says): what a planner that draws paths
  /// on the CPU draws (`PlanOptions.cpuPaths`). Not part of equality: the
  /// mesh stands for the path.
  package var style: ShapeStyle?
  /// The layer animates what the GPU evaluates per fragment (`strokeStart`,
  /// `strokeEnd`, the dash pattern and phase, `lineWidth`): on the GPU a
  /// new value of these costs uniforms; on the CPU it costs stroking again
  /// every frame, so such a layer's paths stay on the GPU
  /// (`FramePlanner.drawsOnCPU`). Not part of equality.
  package var animatesStroke = false
  /// A stroke wider than twice its path's tightest bend, which folds over
  /// itself: the GPU's ribbon cannot draw it, Cairo can. Made only where
  /// the planner draws paths on the CPU (`PathGeometryCache.defersFills`)
  /// and the plane is affine; `FramePlanner.drawsOnCPU` then takes it
  /// whatever animates. Not part of equality (the mesh and the width say it).
  package var foldsOnGPU = false

  package init(
    geometry: Geometry, style: ShapeStyle? = nil, animatesStroke: Bool = false,
    foldsOnGPU: Bool = false
  ) {
    self.geometry = geometry
    self.style = style
    self.animatesStroke = animatesStroke
    self.foldsOnGPU = foldsOnGPU
  }

  package var mesh: PathMesh {
    switch geometry {
    case .fill(let mesh): return mesh
    case .stroke(let mesh, _): return mesh
    }
  }

  package var stroke: StrokeParameters? {
    if case .stroke(_, let parameters) = geometry { return parameters }
    return nil
  }

  /// Whether a path under `m` (its plane to the target) can be drawn on
  /// the CPU: an affine map, the plane in front (the planner's
  /// `drawsOnCPU`, and the builder's guess of it).
  package static func isDrawableOnCPU(_ m: CATransform3D) -> Bool {
    m.m14 == 0 && m.m24 == 0 && m.m44 > 0
  }

  package static func == (a: PathPaint, b: PathPaint) -> Bool {
    a.mesh === b.mesh && a.stroke == b.stroke
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(mesh.serial)
    hasher.combine(stroke)
  }
}

extension FrameBuilder {
  /// Whether shape layers draw on the GPU (`LAMINA_SHAPES=cairo` draws
  /// them with Cairo instead, for comparisons; tests of the Cairo path set
  /// it off around themselves).
  package nonisolated(unsafe) static var shapesOnGPUByDefault =
    ProcessInfo.processInfo.environment["LAMINA_SHAPES"] != "cairo"

  /// A `CAShapeLayer`'s fill and stroke as path items: meshes from the
  /// cache, this frame's colors and stroke parameters. False when the
  /// GPU path cannot draw the layer (a path too complex for the budget, a
  /// dash pattern longer than the shader's, a stroke wider than twice a
  /// curve's tightest bend, which folds over itself), which Cairo then draws
  /// into the layer's bitmap. A stroke that folds is still an item where the
  /// planner draws paths on the CPU (`PathPaint.foldsOnGPU`): Cairo strokes
  /// it in the frame's pixels with the paths around it, and a group holding
  /// it can be drawn whole there.
  func appendPathItems(
    _ layer: CAShapeLayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) -> Bool {
    let animatesStroke = Self.animatesStroke(layer)
    let defers = caches.paths.defersFills.load(ordering: .relaxed)
    let affine = PathPaint.isDrawableOnCPU(toTarget)
    // The layer's visit kept what its values made last time: a layer
    // derived again for its parent's motion alone (its own values as they
    // were) is placed anew, without its style, meshes and parameters
    // looked up again.
    let node = memoNode.flatMap { $0.layer === layer ? $0 : nil }
    if let memo = node?.pathItems, memo.stamp == layer.contentStamp,
      memo.animatesStroke == animatesStroke, memo.defers == defers, memo.affine == affine,
      memo.level == Int.min  // nothing to draw: no style
        || PathFlattening.level(forScale: Self.largestStretch(toTarget, memo.area)) == memo.level
    {
      // Read in place: a part copied whole (its material's style and
      // meshes retained, then released) cost more than placing it.
      memo.parts.withUnsafeBufferPointer { parts in
        for i in parts.indices {
          guard
            var item = makeItem(
              parts[i].material, rect: parts[i].rect, uv: (0, 0, 0, 0), toTarget: toTarget,
              color: parts[i].color, name: layer.name)
          else { continue }
          if parts[i].grows {
            item.bounds = Self.grownFillBounds(item.bounds, within: targetBounds)
          }
          commands.append(.item(item))
        }
      }
      log.placedShapes += 1
      return memo.drawable
    }
    var memo = PathItemsMemo(
      stamp: layer.contentStamp, animatesStroke: animatesStroke, defers: defers, affine: affine)
    defer { node?.pathItems = memo }
    guard let style = ShapeStyle(layer) else { return true }
    let area = layer.bounds.isEmpty ? style.path.boundingBox : layer.bounds
    let level = PathFlattening.level(forScale: Self.largestStretch(toTarget, area))
    (memo.area, memo.level) = (area, level)
    let cache = caches.paths
    var items: [DrawItem] = []
    if let fill = style.fillColor {
      // A fill the planner will hand to Cairo is not tessellated
      // (`PathGeometryCache.defersFills`; `FramePlanner.drawsOnCPU` may still
      // keep it on the GPU, which then tessellates it).
      let deferred = defers && !animatesStroke && affine
      guard
        let mesh = cache.fill(
          style.path, evenOdd: style.fillRule == .evenOdd, level: level, tessellated: !deferred)
      else {
        memo.drawable = false
        return false
      }
      if deferred ? !mesh.bounds.isEmpty : !mesh.indices.isEmpty {
        let material = Material.path(
          PathPaint(geometry: .fill(mesh), style: style, animatesStroke: animatesStroke))
        let color = premultiplied(fill, opacity: 1)
        memo.parts.append(.init(material: material, rect: mesh.bounds, color: color, grows: true))
        if var item = makeItem(
          material, rect: mesh.bounds, uv: (0, 0, 0, 0), toTarget: toTarget, color: color,
          name: layer.name)
        {
          item.bounds = Self.grownFillBounds(item.bounds, within: targetBounds)
          items.append(item)
        }
      }
    }
    if let stroke = style.strokeColor {
      guard
        let mesh = cache.stroke(
          style.path, join: style.lineJoin, miterLimit: style.miterLimit, level: level),
        let parameters = StrokeParameters(style, length: mesh.length)
      else {
        memo.drawable = false
        return false
      }
      let folds = Double(style.lineWidth) / 2 >= mesh.tightestBend
      if folds {
        guard defers, affine, parameters.coverageScale == 1 else {
          memo.drawable = false
          return false
        }
      }
      let rect = mesh.bounds(halfWidth: Double(style.lineWidth) / 2)
      if !mesh.indices.isEmpty, !rect.isNull {
        let material = Material.path(
          PathPaint(
            geometry: .stroke(mesh, parameters), style: style, animatesStroke: animatesStroke,
            foldsOnGPU: folds))
        let color = premultiplied(stroke, opacity: parameters.coverageScale)
        memo.parts.append(.init(material: material, rect: rect, color: color, grows: false))
        if let item = makeItem(
          material, rect: rect, uv: (0, 0, 0, 0), toTarget: toTarget, color: color,
          name: layer.name)
        {
          items.append(item)
        }
      }
    }
    commands += items.map { .item($0) }
    return true
  }

  /// A fill's bounds grown by the reach of its antialiasing past the pixel
  /// the item's bounds add: at a sharp corner the ribbon reaches further
  /// (the metamorphic finding partial-redraw seed 778500: a spike's faint
  /// pixel outside the damage stayed when the shape moved).
  static func grownFillBounds(_ b: PixelRect, within target: PixelRect) -> PixelRect {
    let grow = FillTessellator.boundsReach - 1
    return PixelRect(
      x: b.x - grow, y: b.y - grow, width: b.width + 2 * grow, height: b.height + 2 * grow
    ).intersection(target)
  }
}

/// What a shape layer's values made of its path items at its last visit
/// (`RenderTree.Node.pathItems`): the items before they are placed, and
/// what they were made under. Valid while the layer's own values are
/// those of `stamp` (`CALayer.contentStamp`) and the visit's flattening
/// level, the planner's choices and the stroke's animation are the same.
struct PathItemsMemo {
  struct Part {
    var material: Material
    var rect: CGRect
    var color: SIMD4<Float>
    /// A fill, whose bounds grow by its antialiasing's reach.
    var grows: Bool
  }

  var stamp: UInt64
  var animatesStroke: Bool
  var defers: Bool
  var affine: Bool
  /// The rect whose largest stretch chose the flattening level, and the level.
  var area = CGRect.null
  var level = Int.min
  var parts: [Part] = []
  /// What `appendPathItems` returned.
  var drawable = true
}

extension FrameBuilder {
  /// The stroke parameters an animation of `layer`'s model may change.
  static let strokeKeys: Set<String> = Set(
    [LayerKey.strokeStart, .strokeEnd, .lineDashPhase, .lineDashPattern, .lineWidth].map(\.rawValue))

  /// Whether an animation of `layer`'s model (or of a group it holds)
  /// changes one of `strokeKeys`.
  static func animatesStroke(_ layer: CAShapeLayer) -> Bool {
    func touches(_ animation: CAAnimation) -> Bool {
      if let group = animation as? CAAnimationGroup {
        return (group.animations ?? []).contains(where: touches)
      }
      guard let keyPath = (animation as? CAPropertyAnimation)?.keyPath else { return false }
      return strokeKeys.contains(keyPath)
    }
    return layer.model().animations.contains { touches($0.animation) }
  }
}

extension DrawItem {
  /// False for items whose material is not a fill of their rect (paths):
  /// clipping cannot cut them by shrinking the rect.
  var fillsItsRect: Bool {
    if case .path = material { return false }
    return true
  }
}
