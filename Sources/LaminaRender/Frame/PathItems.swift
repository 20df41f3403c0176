import Foundation
import Lamina
import LaminaDraw

/// What a path item draws: a fill mesh, or a stroke mesh with this
/// frame's stroke parameters. Equal when they draw the same mesh the same
/// way (meshes compare by identity: the cache gives one per path and style).
public struct PathPaint: Hashable {
  enum Geometry {
    case fill(FillMesh)
    case stroke(StrokeMesh, StrokeParameters)
  }

  let geometry: Geometry

  var mesh: PathMesh {
    switch geometry {
    case .fill(let mesh): return mesh
    case .stroke(let mesh, _): return mesh
    }
  }

  var stroke: StrokeParameters? {
    if case .stroke(_, let parameters) = geometry { return parameters }
    return nil
  }

  public static func == (a: PathPaint, b: PathPaint) -> Bool {
    a.mesh === b.mesh && a.stroke == b.stroke
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(mesh))
    hasher.combine(stroke)
  }
}

/// The parts of a stroke that its fragments evaluate, set per draw: line
/// width, caps, the trim and the dash pattern in arc lengths. Animating
/// any of them changes uniforms only.
struct StrokeParameters: Hashable {
  enum Cap: Int32 {
    case butt = 0, round = 1, square = 2
  }

  /// The most dashes (on-intervals of one period) the shader takes.
  static let maxDashes = 4

  var halfWidth: Float
  var cap: Cap
  /// `strokeStart` and `strokeEnd` as arc lengths.
  var trim: SIMD2<Float>
  /// The on-intervals of one period of the dash pattern (empty: no dashes).
  var dashes: [SIMD2<Float>]
  var dashPeriod: Float
  /// `lineDashPhase`, in 0..<dashPeriod.
  var dashPhase: Float
  /// The fraction of a dash pattern too fine to draw (periods under a
  /// hundredth of a point) that is on: the stroke is drawn solid, this
  /// much transparent, as a box filter sees it.
  var coverageScale: Float = 1

  /// The parameters of `style` for a path of length `length`; nil when the
  /// dash pattern has more dashes than the shader takes.
  init?(_ style: ShapeStyle, length: Double) {
    halfWidth = Float(style.lineWidth / 2)
    switch style.lineCap {
    case .round: cap = .round
    case .square: cap = .square
    default: cap = .butt
    }
    func fraction(_ v: CGFloat, _ fallback: Double) -> Double {
      v.isFinite ? min(max(Double(v), 0), 1) : fallback
    }
    trim = SIMD2(
      Float(fraction(style.strokeStart, 0) * length), Float(fraction(style.strokeEnd, 1) * length))
    dashes = []
    dashPeriod = 0
    dashPhase = 0
    guard var pattern = style.lineDashPattern?.map(Double.init), !pattern.isEmpty,
      pattern.allSatisfy({ $0.isFinite && $0 >= 0 })
    else { return }
    // An odd count repeats, as in Core Graphics and Cairo.
    if pattern.count % 2 == 1 { pattern += pattern }
    let period = pattern.reduce(0, +)
    guard period > 0, period.isFinite else { return }
    let on = stride(from: 0, to: pattern.count, by: 2).map { pattern[$0] }.reduce(0, +)
    guard period >= 0.01 else {
      coverageScale = Float(on / period)
      return
    }
    guard pattern.count / 2 <= Self.maxDashes else { return nil }
    var offset = 0.0
    for i in stride(from: 0, to: pattern.count, by: 2) {
      dashes.append(SIMD2(Float(offset), Float(offset + pattern[i])))
      offset += pattern[i] + pattern[i + 1]
    }
    dashPeriod = Float(period)
    let phase = Double(style.lineDashPhase)
    let wrapped = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
    dashPhase = Float(wrapped < 0 ? wrapped + period : wrapped)
    if dashPhase >= dashPeriod { dashPhase = 0 }
  }

  /// The visible parts of a subpath running from `start` to `end` (arc
  /// lengths), as the fragment shader decides them: the trim's window,
  /// cut into dashes that start at the window's start. For tests and
  /// diagnostics; the GPU evaluates the same per fragment.
  func visibleIntervals(start: Double, end: Double) -> [ClosedRange<Double>] {
    let lo = max(start, Double(trim.x))
    let hi = min(end, Double(trim.y))
    guard hi >= lo else { return [] }
    guard !dashes.isEmpty else { return [lo...hi] }
    var result: [ClosedRange<Double>] = []
    let period = Double(dashPeriod)
    var base = lo - Double(dashPhase)
    while base <= hi {
      for dash in dashes {
        let a = max(base + Double(dash.x), lo)
        let b = min(base + Double(dash.y), hi)
        if b >= a { result.append(a...b) }
      }
      base += period
    }
    return result
  }
}

extension FrameBuilder {
  /// Whether shape layers draw on the GPU (`LAMINA_SHAPES=cairo` draws
  /// them with Cairo instead, for comparisons).
  static let shapesOnGPUByDefault =
    ProcessInfo.processInfo.environment["LAMINA_SHAPES"] != "cairo"

  /// A `CAShapeLayer`'s fill and stroke as path items: meshes from the
  /// cache, this frame's colors and stroke parameters. False when the
  /// GPU path cannot draw the layer (a path too complex for the budget, a
  /// dash pattern longer than the shader's), which Cairo then draws.
  func appendPathItems(
    _ layer: CAShapeLayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) -> Bool {
    guard let style = ShapeStyle(layer) else { return true }
    let area = layer.bounds.isEmpty ? style.path.boundingBox : layer.bounds
    let level = PathFlattening.level(forScale: Self.largestStretch(toTarget, area))
    let cache = PathGeometryCache.shared
    var items: [DrawItem] = []
    if let fill = style.fillColor {
      guard let mesh = cache.fill(style.path, evenOdd: style.fillRule == .evenOdd, level: level)
      else { return false }
      if !mesh.indices.isEmpty,
        let item = makeItem(
          .path(PathPaint(geometry: .fill(mesh))), rect: mesh.bounds, uv: (0, 0, 0, 0),
          toTarget: toTarget, color: premultiplied(fill, opacity: 1), name: layer.name)
      {
        items.append(item)
      }
    }
    if let stroke = style.strokeColor {
      guard
        let mesh = cache.stroke(
          style.path, join: style.lineJoin, miterLimit: style.miterLimit, level: level),
        let parameters = StrokeParameters(style, length: mesh.length)
      else { return false }
      let rect = mesh.bounds(halfWidth: Double(style.lineWidth) / 2)
      if !mesh.indices.isEmpty, !rect.isNull,
        let item = makeItem(
          .path(PathPaint(geometry: .stroke(mesh, parameters))), rect: rect, uv: (0, 0, 0, 0),
          toTarget: toTarget,
          color: premultiplied(stroke, opacity: parameters.coverageScale), name: layer.name)
      {
        items.append(item)
      }
    }
    commands += items.map { .item($0) }
    return true
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
