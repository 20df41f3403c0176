import Foundation
import Lamina
import LaminaRender
import LaminaScene

extension Harness {
  /// How many texels a pixel step may cross before the linear filter, which
  /// reads 2×2 texels around a pixel's center, skips texels between pixels.
  static let linearFootprint = 2.0

  /// The layers of `scene` (paths from the root) whose contents are drawn,
  /// at `time` and the canvas scale, minified by more than
  /// `linearFootprint` texels a pixel with the linear minification filter
  /// (no mipmaps): their pixels depend on where the pixel centers fall
  /// among the texels, and twice as many centers (scale 2) hit texels
  /// that the first ones skipped. Core Animation's `linear` filter samples
  /// so too (`trilinear` is the filter for images shown small).
  package func layersMinifyingPastTheLinearFootprint(_ scene: JSON, time: Double) throws
    -> [LayerPath]
  {
    let loaded = try load(scene)
    // The model layers, by identity, with their paths in the scene.
    var paths: [ObjectIdentifier: LayerPath] = [:]
    func walk(_ layer: CALayer, _ path: LayerPath) {
      paths[ObjectIdentifier(layer)] = path
      for (i, sublayer) in (layer.sublayers ?? []).enumerated() {
        walk(sublayer, path.appending(.sublayer(i)))
      }
      if let mask = layer.mask { walk(mask, path.appending(.mask)) }
    }
    walk(loaded.root, .root)
    var builder = FrameBuilder(
      size: CGSize(width: loaded.canvas.width, height: loaded.canvas.height),
      scale: loaded.canvas.scale, caches: RenderCaches())
    builder.time = time
    Renderer.commit(loaded.root)
    let root = PresentationTree(root: loaded.root).update(time: time)
    let list = builder.build(root: root, background: loaded.canvas.background)
    var found: Set<LayerPath> = []
    for item in list.allItems {
      guard case .image(let image, let sampler) = item.material, sampler.minification == .linear,
        let source = item.source, let path = paths[source],
        Self.texelsPerPixel(item, image) > Self.linearFootprint
      else { continue }
      found.insert(path)
    }
    return found.sorted { $0.description < $1.description }
  }

  /// The most texels one pixel step crosses in the item's image (the
  /// longer of the texture coordinates' screen derivatives, as GL's ρ),
  /// at the corners and center of its polygon.
  static func texelsPerPixel(_ item: DrawItem, _ image: CGImage) -> Double {
    let r = item.rect
    guard r.width > 0, r.height > 0 else { return 0 }
    let uv = item.uv
    // Texels per point of the item's plane.
    let su = Double(image.width) * Double(uv.u1 - uv.u0) / Double(r.width)
    let sv = Double(image.height) * Double(uv.v1 - uv.v0) / Double(r.height)
    let m = item.matrix
    func screen(_ x: Double, _ y: Double) -> SIMD2<Double>? {
      let q = m.apply(CGFloat(x), CGFloat(y))
      guard q.w > 1e-9 else { return nil }
      return SIMD2(Double(q.x / q.w), Double(q.y / q.w))
    }
    var points = item.polygon.map { SIMD2(Double($0.x), Double($0.y)) }
    points.append(points.reduce(.zero, +) / Double(max(points.count, 1)))
    var most = 0.0
    let h = 1e-3 * Double(min(r.width, r.height))
    for p in points {
      guard let s0 = screen(p.x, p.y), let sx = screen(p.x + h, p.y), let sy = screen(p.x, p.y + h)
      else { continue }
      // Screen per plane (columns: along x, along y), inverted.
      let a = (sx - s0) / h
      let b = (sy - s0) / h
      let det = a.x * b.y - a.y * b.x
      guard abs(det) > 1e-12 else { continue }
      // Plane per screen: rows of the inverse.
      let dxds = SIMD2(b.y, -b.x) / det  // d(plane x)/d(screen x, screen y)
      let dyds = SIMD2(-a.y, a.x) / det  // d(plane y)/d(screen x, screen y)
      // Texels per screen step along x and along y.
      let alongX = SIMD2(su * dxds.x, sv * dyds.x)
      let alongY = SIMD2(su * dxds.y, sv * dyds.y)
      let rho = max(
        (alongX * alongX).sum().squareRoot(), (alongY * alongY).sum().squareRoot())
      if rho.isFinite { most = max(most, rho) }
    }
    return most
  }
}
