import Foundation
import Lamina

// The shapes of a shape layer as a typed model, decoded once from the JSON
// (`ShapeModel+Decoding.swift`, one decoder per `ty` found through a
// table) before any layer is made: every item's properties are `Property`s
// with their keyframes and JSON paths that answer their value at any frame.
// The builder (`LottieShapes.swift`) reads only this model; a repeater's
// copies and every use of a precomposition share it.

/// One item of a shape layer's `shapes` or a group's `it`, by kind.
enum ShapeItem {
  /// A group (`gr`): its own transform and items.
  case group(ShapeGroup)
  /// A shape that makes a path: path (`sh`), rect (`rc`), ellipse (`el`), polystar (`sr`).
  case geometry(GeometrySource)
  /// A fill, stroke, gradient fill or gradient stroke (`fl`, `st`, `gf`, `gs`).
  case style(Style)
  /// A path modifier: trim (`tm`), round corners (`rd`), pucker and bloat
  /// (`pb`), zig-zag (`zz`), offset path (`op`).
  case modifier(Modifier)
  /// A repeater (`rp`): the items above it copied.
  case repeater(Repeater)
  /// Merge paths other than "merge" (2 add, 3 subtract, 4 intersect, 5 exclude).
  case merge(mode: Int, path: String)
  /// What draws nothing itself: a group's transform (`tr`, read by its
  /// group), a hidden item (`hd`), merge paths mode 1, an unknown kind
  /// (reported in its list's `notes`).
  case inert
}

/// A list of shape items with what decoding it left out (unknown kinds,
/// merge modes), reported when the list is built, in the order the items
/// come (a nested group's notes are its own).
struct ShapeList {
  var items: [ShapeItem]
  var notes: [LottieUnsupported] = []
}

/// A shape group (`gr`).
struct ShapeGroup {
  var name: String?
  /// The group's JSON path.
  var path: String
  /// Its transform: the last `tr` among its items (nil: none), with that item's path.
  var transform: (spec: TransformSpec, path: String)?
  var contents: ShapeList
}

/// A repeater (`rp`): `copies` copies of the items above it, copy i moved
/// by its transform i + `offset` times, opacity from `startOpacity` to
/// `endOpacity` along the copies.
struct Repeater {
  var path: String
  var copies: Property
  /// The most copies any keyframe asks for (rounded up, at least 0).
  var maxCopies: Int
  /// Where the copy count is (its `c`, or the repeater itself), for the limit.
  var copiesPath: String
  var offset: Property
  var transform: TransformSpec
  var startOpacity: Property
  var endOpacity: Property
  /// Composite mode 1 (above): later copies over earlier ones.
  var above: Bool
}

/// A shape that makes a path: `sh`, `rc`, `el`, `sr`.
enum GeometrySource {
  case path(Property)
  case rect(position: Property, size: Property, roundness: Property, reversed: Bool)
  case ellipse(position: Property, size: Property, reversed: Bool)
  case star(
    star: Bool, points: Property, position: Property, rotation: Property, outer: Property,
    inner: Property, outerRoundness: Property, innerRoundness: Property, reversed: Bool,
    maxVertices: Int)

  var properties: [Property] {
    switch self {
    case .path(let p): return [p]
    case .rect(let a, let b, let c, _): return [a, b, c]
    case .ellipse(let a, let b, _): return [a, b]
    case .star(_, let a, let b, let c, let d, let e, let f, let g, _, _):
      return [a, b, c, d, e, f, g]
    }
  }

  func shape(at f: Double) -> BezierShape {
    switch self {
    case .path(let p): return BezierShape(vector: p.value(at: f), closed: p.closed)
    case .rect(let p, let s, let r, let reversed):
      let pv = p.value(at: f)
      let sv = s.value(at: f)
      return Geometry.rect(
        center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]),
        roundness: r.scalar(at: f), reversed: reversed)
    case .ellipse(let p, let s, let reversed):
      let pv = p.value(at: f)
      let sv = s.value(at: f)
      return Geometry.ellipse(
        center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]),
        reversed: reversed)
    case .star(
      let star, let pt, let p, let r, let or, let ir, let os, let is_, let reversed, let maxV):
      let pv = p.value(at: f)
      return Geometry.polystar(
        star: star, points: pt.scalar(at: f), center: CGPoint(x: pv[0], y: pv[1]),
        rotation: r.scalar(at: f), outerRadius: or.scalar(at: f), innerRadius: ir.scalar(at: f),
        outerRoundness: os.scalar(at: f), innerRoundness: is_.scalar(at: f), reversed: reversed,
        maxVertices: maxV)
    }
  }
}

/// A shape modifier: changes the paths above it.
final class Modifier {
  enum Kind {
    case trim(start: Property, end: Property, offset: Property, individually: Bool)
    case round(Property)
    case puckerBloat(Property)
    case zigZag(size: Property, ridges: Property, smooth: Bool)
    case offset(amount: Property, join: Int, miterLimit: Property)
  }
  let kind: Kind
  init(_ kind: Kind) { self.kind = kind }

  var properties: [Property] {
    switch kind {
    case .trim(let s, let e, let o, _): return [s, e, o]
    case .round(let r): return [r]
    case .puckerBloat(let a): return [a]
    case .zigZag(let s, let r, _): return [s, r]
    case .offset(let a, _, let m): return [a, m]
    }
  }

  var isTrim: Bool {
    if case .trim = kind { return true }
    return false
  }

  func apply(_ s: BezierShape, at f: Double) -> BezierShape {
    switch kind {
    case .trim: return s
    case .round(let r): return Geometry.roundCorners(s, radius: r.scalar(at: f))
    case .puckerBloat(let a): return Geometry.puckerBloat(s, amount: a.scalar(at: f))
    case .zigZag(let size, let ridges, let smooth):
      return Geometry.zigZag(
        s, amplitude: size.scalar(at: f), ridges: ridges.scalar(at: f), smooth: smooth)
    case .offset(let a, let join, let ml):
      return Geometry.offset(s, amount: a.scalar(at: f), join: join, miterLimit: ml.scalar(at: f))
    }
  }
}

/// A fill, stroke, gradient fill or gradient stroke.
struct Style {
  enum Kind { case fill, stroke, gradientFill, gradientStroke }
  var kind: Kind
  /// The item's JSON path (`layers[0].shapes[2]`), for reports and limits.
  var path: String
  var color = Property(constant: [0, 0, 0, 1])
  var opacity = Property(constant: [100])
  var width = Property(constant: [1])
  var cap = 2
  var join = 2
  var miterLimit = 4.0
  var dashes: [(String, Property)] = []
  var evenOdd = false
  var blend = 0
  // Gradients.
  var radial = false
  var start = Property(constant: [0, 0])
  var end = Property(constant: [0, 0])
  var highlight = Property(constant: [0])
  var highlightAngle = Property(constant: [0])
  var stops = Property(constant: [])
  var colorStops = 0

  var isStroke: Bool { kind == .stroke || kind == .gradientStroke }
}

/// A path item with the modifiers that apply to it (nearest first).
struct SourceRef {
  var source: GeometrySource
  var modifiers: [Modifier]
}
