import Foundation
import Synchronization

/// The kind of a path element, as `applyWithBlock` reports it.
public enum CGPathElementType: Int32, Sendable {
  case moveToPoint, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One element of a path, as Core Graphics hands it to `applyWithBlock`:
/// its kind and its points (valid only during the call).
public struct CGPathElement {
  public var type: CGPathElementType
  public var points: UnsafeMutablePointer<CGPoint>
  public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
    self.type = type
    self.points = points
  }
}

/// Core Graphics' C-style path applier.
public typealias CGPathApplierFunction = (UnsafeMutableRawPointer?, UnsafePointer<CGPathElement>)
  -> Void

/// How the inside of a path is decided.
public enum CGPathFillRule: Sendable, Hashable {
  /// Inside where the winding number is not zero.
  case winding
  /// Inside where the number of crossings is odd.
  case evenOdd
}

/// An immutable 2D path made of subpaths of lines and Bézier curves, Core
/// Graphics' `CGPath`. Build one with `CGMutablePath`, or from SVG path data
/// with `CGPath.parseSVG(_:)`.
///
/// ```swift
/// let path = CGMutablePath()
/// path.move(to: CGPoint(x: 0, y: 0))
/// path.addLine(to: CGPoint(x: 100, y: 0))
/// path.addQuadCurve(to: CGPoint(x: 0, y: 100), control: CGPoint(x: 100, y: 100))
/// path.closeSubpath()
/// ```
public class CGPath: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {
  /// One step of a path.
  public enum Element: Equatable, Hashable, Sendable {
    /// Starts a new subpath at the point.
    case moveTo(CGPoint)
    /// A straight line from the current point.
    case lineTo(CGPoint)
    /// A quadratic Bézier curve from the current point.
    case quadCurveTo(CGPoint, control: CGPoint)
    /// A cubic Bézier curve from the current point.
    case curveTo(CGPoint, control1: CGPoint, control2: CGPoint)
    /// A line back to the subpath's first point, closing it.
    case closeSubpath
  }

  /// The elements, in order.
  public internal(set) var elements: [Element] {
    didSet { memo.withLock { $0 = Memo() } }
  }

  /// What is derived from the elements and asked for every frame (a path
  /// is hashed to find its mesh and boxed to place it), kept until they
  /// change; locked, since a path can be shared between threads.
  private let memo = Mutex(Memo())

  private struct Memo {
    var hash: Int?
    var boundingBox: CGRect?
  }

  /// An empty path.
  public init() { elements = [] }

  init(elements: [Element]) { self.elements = elements }

  /// A closed rectangle, transformed by `transform` when it is not nil (as
  /// Core Graphics takes it: `CGPath(rect: r, transform: nil)` or `&t`).
  public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
    let path = CGMutablePath()
    path.addRect(rect, transform: transform?.pointee ?? .identity)
    self.init(elements: path.elements)
  }

  /// An ellipse inscribed in `rect`, transformed by `transform` when it is not nil.
  public convenience init(
    ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil
  ) {
    let path = CGMutablePath()
    path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
    self.init(elements: path.elements)
  }

  /// A rounded rectangle, transformed by `transform` when it is not nil.
  public convenience init(
    roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
    transform: UnsafePointer<CGAffineTransform>? = nil
  ) {
    let path = CGMutablePath()
    path.addRoundedRect(
      in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
      transform: transform?.pointee ?? .identity)
    self.init(elements: path.elements)
  }

  /// True when the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// The point where the next element starts (`.zero` for an empty path).
  public var currentPoint: CGPoint {
    var start = CGPoint.zero
    var current = CGPoint.zero
    for element in elements {
      switch element {
      case .moveTo(let p):
        start = p
        current = p
      case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): current = p
      case .closeSubpath: current = start
      }
    }
    return current
  }

  /// The smallest rectangle holding every point of the path, control points
  /// included (`.null` for an empty path), as Core Graphics computes it.
  public var boundingBox: CGRect {
    if let box = memo.withLock({ $0.boundingBox }) { return box }
    let box = elementsBox()
    memo.withLock { $0.boundingBox = box }
    return box
  }

  private func elementsBox() -> CGRect {
    var points: [CGPoint] = []
    for element in elements {
      switch element {
      case .moveTo(let p), .lineTo(let p): points.append(p)
      case .quadCurveTo(let p, let c): points += [p, c]
      case .curveTo(let p, let c1, let c2): points += [p, c1, c2]
      case .closeSubpath: break
      }
    }
    return Self.box(points)
  }

  /// The smallest rectangle holding the path's drawn points (curves flattened
  /// finely), without the control points.
  public var boundingBoxOfPath: CGRect {
    Self.box(flattened(tolerance: 0.01).flatMap(\.points))
  }

  static func box(_ points: [CGPoint]) -> CGRect {
    guard let first = points.first else { return .null }
    var x0 = first.x
    var y0 = first.y
    var x1 = first.x
    var y1 = first.y
    for p in points.dropFirst() {
      x0 = min(x0, p.x)
      y0 = min(y0, p.y)
      x1 = max(x1, p.x)
      y1 = max(y1, p.y)
    }
    return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Calls `block` with each element, in order, as Core Graphics does: a
  /// `CGPathElement` whose `points` hold the element's points (one for a
  /// move or a line, two for a quadratic curve, control point first, three
  /// for a cubic, none for a close).
  ///
  /// ```swift
  /// path.applyWithBlock { element in
  ///   if element.pointee.type == .addLineToPoint { print(element.pointee.points[0]) }
  /// }
  /// ```
  public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
    let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
    points.initialize(repeating: .zero, count: 3)
    defer { points.deallocate() }
    for element in elements {
      let type: CGPathElementType
      switch element {
      case .moveTo(let p):
        type = .moveToPoint
        points[0] = p
      case .lineTo(let p):
        type = .addLineToPoint
        points[0] = p
      case .quadCurveTo(let p, let c):
        type = .addQuadCurveToPoint
        (points[0], points[1]) = (c, p)
      case .curveTo(let p, let c1, let c2):
        type = .addCurveToPoint
        (points[0], points[1], points[2]) = (c1, c2, p)
      case .closeSubpath:
        type = .closeSubpath
      }
      var pathElement = CGPathElement(type: type, points: points)
      withUnsafePointer(to: &pathElement) { block($0) }
    }
  }

  /// Calls `function` with `info` and each element (Core Graphics' C-style
  /// applier; `applyWithBlock` is the Swift one).
  public func apply(info: UnsafeMutableRawPointer?, function: CGPathApplierFunction) {
    applyWithBlock { function(info, $0) }
  }

  /// A mutable copy.
  public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }

  /// A mutable copy with every point transformed by `transform` (nil: none).
  public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
    let t = transform?.pointee ?? .identity
    return CGMutablePath(elements: t.isIdentity ? elements : elements.map { $0.applying(t) })
  }

  /// An immutable copy.
  public func copy() -> CGPath? { CGPath(elements: elements) }

  /// A copy with every point transformed by `transform` (nil: none), as Core
  /// Graphics takes it: `path.copy(using: &t)`.
  public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
    copy(using: transform?.pointee ?? .identity)
  }

  /// A copy with every point transformed by `transform`.
  public func copy(using transform: CGAffineTransform) -> CGPath {
    CGPath(elements: elements.map { $0.applying(transform) })
  }

  /// Whether the path is a rectangle (four lines around a rect, closed, as
  /// `CGPath(rect:)` and `addRect` make one); if so, `rect` (when not nil)
  /// receives it.
  public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
    var points: [CGPoint] = []
    for (i, element) in elements.enumerated() {
      switch element {
      case .moveTo(let p) where i == 0: points.append(p)
      case .lineTo(let p) where i > 0: points.append(p)
      case .closeSubpath where i == elements.count - 1: break
      default: return false
      }
    }
    if points.count == 5, points[4] == points[0] { points.removeLast() }
    guard points.count == 4 else { return false }
    let box = Self.box(points)
    // Consecutive corners share an x or a y, alternately, and all are corners of the box.
    let corners = Set(
      [
        CGPoint(x: box.minX, y: box.minY), CGPoint(x: box.maxX, y: box.minY),
        CGPoint(x: box.maxX, y: box.maxY), CGPoint(x: box.minX, y: box.maxY),
      ].map { "\($0.x),\($0.y)" })
    guard Set(points.map { "\($0.x),\($0.y)" }) == corners else { return false }
    for i in 0..<4 {
      let a = points[i]
      let b = points[(i + 1) % 4]
      guard a.x == b.x || a.y == b.y else { return false }
    }
    rect?.pointee = box
    return true
  }

  /// The path with its curves replaced by lines no farther than `threshold`
  /// from them (Core Graphics' `flattened(threshold:)`).
  public func flattened(threshold: CGFloat) -> CGPath {
    let path = CGMutablePath()
    for line in flattened(tolerance: threshold) {
      guard let first = line.points.first else { continue }
      path.move(to: first)
      for p in line.points.dropFirst() { path.addLine(to: p) }
      if line.isClosed { path.closeSubpath() }
    }
    return path
  }

  /// True when `point` is inside the path under `rule` (curves are flattened).
  public func contains(
    _ point: CGPoint, using rule: CGPathFillRule = .winding,
    transform: CGAffineTransform = .identity
  ) -> Bool {
    let p = transform.isIdentity ? point : point.applying(transform.inverted())
    var winding = 0
    for subpath in flattened(tolerance: 0.05) {
      let pts = subpath.points
      guard pts.count > 1 else { continue }
      // Every subpath is closed implicitly for filling.
      for i in 0..<pts.count {
        let a = pts[i]
        let b = pts[(i + 1) % pts.count]
        if a.y <= p.y {
          if b.y > p.y && cross(a, b, p) > 0 { winding += 1 }
        } else if b.y <= p.y && cross(a, b, p) < 0 {
          winding -= 1
        }
      }
    }
    return rule == .winding ? winding != 0 : winding % 2 != 0
  }

  private func cross(_ a: CGPoint, _ b: CGPoint, _ p: CGPoint) -> CGFloat {
    (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
  }

  /// A subpath turned into straight segments.
  public struct Polyline: Equatable, Sendable {
    /// The points, the first one included once.
    public var points: [CGPoint]
    /// True when the subpath ended with `closeSubpath`.
    public var isClosed: Bool
  }

  /// The subpaths with curves replaced by segments no farther than about
  /// `tolerance` from the curve.
  public func flattened(tolerance: CGFloat = 0.25) -> [Polyline] {
    var result: [Polyline] = []
    var current = Polyline(points: [], isClosed: false)
    var last = CGPoint.zero
    var start = CGPoint.zero
    func finish() {
      if !current.points.isEmpty { result.append(current) }
      current = Polyline(points: [], isClosed: false)
    }
    func ensureStarted() {
      if current.points.isEmpty { current.points.append(last) }
    }
    let tol = max(tolerance, 1e-4)
    for element in elements {
      switch element {
      case .moveTo(let p):
        finish()
        current.points.append(p)
        last = p
        start = p
      case .lineTo(let p):
        ensureStarted()
        current.points.append(p)
        last = p
      case .quadCurveTo(let p, let c):
        ensureStarted()
        let d = abs(last.x - 2 * c.x + p.x) + abs(last.y - 2 * c.y + p.y)
        let n = segmentCount(d, tol)
        for i in 1...n {
          let t = CGFloat(i) / CGFloat(n)
          let u = 1 - t
          current.points.append(
            CGPoint(
              x: u * u * last.x + 2 * u * t * c.x + t * t * p.x,
              y: u * u * last.y + 2 * u * t * c.y + t * t * p.y))
        }
        last = p
      case .curveTo(let p, let c1, let c2):
        ensureStarted()
        let d = max(
          abs(last.x - 2 * c1.x + c2.x) + abs(last.y - 2 * c1.y + c2.y),
          abs(c1.x - 2 * c2.x + p.x) + abs(c1.y - 2 * c2.y + p.y))
        let n = segmentCount(d * 1.5, tol)
        for i in 1...n {
          let t = CGFloat(i) / CGFloat(n)
          let u = 1 - t
          let a = u * u * u
          let b = 3 * u * u * t
          let c = 3 * u * t * t
          let e = t * t * t
          current.points.append(
            CGPoint(
              x: a * last.x + b * c1.x + c * c2.x + e * p.x,
              y: a * last.y + b * c1.y + c * c2.y + e * p.y))
        }
        last = p
      case .closeSubpath:
        if !current.points.isEmpty {
          current.isClosed = true
          finish()
        }
        last = start
      }
    }
    finish()
    return result
  }

  private func segmentCount(_ deviation: CGFloat, _ tolerance: CGFloat) -> Int {
    // The distance between a curve and its chords shrinks with the square of
    // the number of segments: n = sqrt(d / (8 tol)) bounds the error by tol.
    guard deviation.isFinite else { return 1 }
    return Int(clamping: (deviation / (8 * tolerance)).squareRoot(), to: 1...1024, rounding: .up)
  }

  public static func == (a: CGPath, b: CGPath) -> Bool { a === b || a.elements == b.elements }

  public func hash(into hasher: inout Hasher) {
    // Equal elements hash alike, so their hash stands for them.
    if let hash = memo.withLock({ $0.hash }) { return hasher.combine(hash) }
    let hash = elements.hashValue
    memo.withLock { $0.hash = hash }
    hasher.combine(hash)
  }

  public var description: String { "CGPath(\(elements.count) elements)" }
}

extension CGPath.Element {
  /// The element with its points transformed.
  public func applying(_ t: CGAffineTransform) -> CGPath.Element {
    switch self {
    case .moveTo(let p): return .moveTo(p.applying(t))
    case .lineTo(let p): return .lineTo(p.applying(t))
    case .quadCurveTo(let p, let c): return .quadCurveTo(p.applying(t), control: c.applying(t))
    case .curveTo(let p, let c1, let c2):
      return .curveTo(p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
    case .closeSubpath: return .closeSubpath
    }
  }
}

/// A path that can be built up, Core Graphics' `CGMutablePath`.
public final class CGMutablePath: CGPath, @unchecked Sendable {
  public override init() { super.init() }

  override init(elements: [CGPath.Element]) { super.init(elements: elements) }

  private var needsMove: Bool {
    guard let last = elements.last else { return true }
    if case .closeSubpath = last { return false }
    return false
  }

  private func append(_ element: CGPath.Element, _ t: CGAffineTransform) {
    let e = t.isIdentity ? element : element.applying(t)
    if elements.isEmpty {
      // Drawing with no current point starts a subpath at the origin.
      if case .moveTo = e {} else { elements.append(.moveTo(.zero)) }
    }
    elements.append(e)
  }

  /// Starts a new subpath at `point`.
  public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
    append(.moveTo(point), transform)
  }

  /// Adds a line from the current point to `point`.
  public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
    append(.lineTo(point), transform)
  }

  /// Adds lines through `points`, starting a subpath at the first.
  public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
    guard let first = points.first else { return }
    move(to: first, transform: transform)
    for p in points.dropFirst() { addLine(to: p, transform: transform) }
  }

  /// Adds a quadratic Bézier curve from the current point.
  public func addQuadCurve(
    to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity
  ) {
    append(.quadCurveTo(end, control: control), transform)
  }

  /// Adds a cubic Bézier curve from the current point.
  public func addCurve(
    to end: CGPoint, control1: CGPoint, control2: CGPoint,
    transform: CGAffineTransform = .identity
  ) {
    append(.curveTo(end, control1: control1, control2: control2), transform)
  }

  /// Closes the current subpath with a line to its first point.
  public func closeSubpath() {
    guard !elements.isEmpty else { return }
    if case .closeSubpath = elements.last! { return }
    elements.append(.closeSubpath)
  }

  /// Adds a closed rectangle: its four corners clockwise on screen from the minimum corner.
  public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
    let r = rect.standardized
    move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
    addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
    addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
    addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
    closeSubpath()
  }

  /// Adds closed rectangles.
  public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
    for r in rects { addRect(r, transform: transform) }
  }

  /// Adds the ellipse inscribed in `rect` as four cubic curves, starting at
  /// the point of largest x.
  public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
    let r = rect.standardized
    let rx = r.width / 2
    let ry = r.height / 2
    let cx = r.midX
    let cy = r.midY
    // A quarter circle is best approximated by control points at this
    // fraction of the radius along the tangents.
    let k: CGFloat = 0.5522847498307936
    move(to: CGPoint(x: cx + rx, y: cy), transform: transform)
    addCurve(
      to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + k * ry),
      control2: CGPoint(x: cx + k * rx, y: cy + ry), transform: transform)
    addCurve(
      to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - k * rx, y: cy + ry),
      control2: CGPoint(x: cx - rx, y: cy + k * ry), transform: transform)
    addCurve(
      to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - k * ry),
      control2: CGPoint(x: cx - k * rx, y: cy - ry), transform: transform)
    addCurve(
      to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + k * rx, y: cy - ry),
      control2: CGPoint(x: cx + rx, y: cy - k * ry), transform: transform)
    closeSubpath()
  }

  /// Adds a rounded rectangle whose corners are quarter ellipses of radii
  /// `cornerWidth` and `cornerHeight` (clamped to half the sides).
  public func addRoundedRect(
    in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
    transform: CGAffineTransform = .identity
  ) {
    let r = rect.standardized
    let w = min(max(cornerWidth, 0), r.width / 2)
    let h = min(max(cornerHeight, 0), r.height / 2)
    guard w > 0, h > 0 else {
      addRect(r, transform: transform)
      return
    }
    let k: CGFloat = 0.5522847498307936
    let kw = k * w
    let kh = k * h
    move(to: CGPoint(x: r.minX + w, y: r.minY), transform: transform)
    addLine(to: CGPoint(x: r.maxX - w, y: r.minY), transform: transform)
    addCurve(
      to: CGPoint(x: r.maxX, y: r.minY + h), control1: CGPoint(x: r.maxX - w + kw, y: r.minY),
      control2: CGPoint(x: r.maxX, y: r.minY + h - kh), transform: transform)
    addLine(to: CGPoint(x: r.maxX, y: r.maxY - h), transform: transform)
    addCurve(
      to: CGPoint(x: r.maxX - w, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - h + kh),
      control2: CGPoint(x: r.maxX - w + kw, y: r.maxY), transform: transform)
    addLine(to: CGPoint(x: r.minX + w, y: r.maxY), transform: transform)
    addCurve(
      to: CGPoint(x: r.minX, y: r.maxY - h), control1: CGPoint(x: r.minX + w - kw, y: r.maxY),
      control2: CGPoint(x: r.minX, y: r.maxY - h + kh), transform: transform)
    addLine(to: CGPoint(x: r.minX, y: r.minY + h), transform: transform)
    addCurve(
      to: CGPoint(x: r.minX + w, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + h - kh),
      control2: CGPoint(x: r.minX + w - kw, y: r.minY), transform: transform)
    closeSubpath()
  }

  /// Appends the elements of `path`.
  public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
    for e in path.elements { elements.append(transform.isIdentity ? e : e.applying(transform)) }
  }
}
