import Foundation

/// Why SVG path data could not be read.
public struct PathError: Error, Equatable, CustomStringConvertible {
  /// The character offset (0-based) where reading stopped.
  public let offset: Int
  /// What the parser expected there.
  public let expected: String
  /// What it found there (a quoted character, or "the end").
  public let found: String

  public init(offset: Int, expected: String, found: String) {
    self.offset = offset
    self.expected = expected
    self.found = found
  }

  public var description: String { "at offset \(offset): expected \(expected), found \(found)" }
}

extension CGPath {
  /// Reads SVG path data (the `d` attribute): every command of SVG 1.1
  /// (`M L H V C S Q T A Z` and their relative forms), implicit repeats, and
  /// numbers such as `1e-3` or `-.5.5`. Arcs become cubic Béziers.
  ///
  /// ```swift
  /// let path = try CGPath.parseSVG("M 0 0 L 100 0 A 50 50 0 0 1 100 100 Z")
  /// ```
  public static func parseSVG(_ text: String) throws -> CGPath {
    var parser = SVGPathParser(Array(text.unicodeScalars))
    return try parser.parse()
  }
}

/// A recursive-descent reader of SVG path data over unicode scalars, so that
/// offsets are character offsets.
struct SVGPathParser {
  let chars: [Unicode.Scalar]
  var index = 0
  let path = CGMutablePath()
  var current = CGPoint.zero
  var subpathStart = CGPoint.zero
  /// The reflected control point for S/s (after C/S) and T/t (after Q/T).
  var lastCubicControl: CGPoint?
  var lastQuadControl: CGPoint?
  var closedSinceMove = false

  init(_ chars: [Unicode.Scalar]) { self.chars = chars }

  var found: String {
    index < chars.count ? "'\(chars[index])'" : "the end"
  }

  func error(_ expected: String) -> PathError {
    PathError(offset: index, expected: expected, found: found)
  }

  mutating func skipSpaces() {
    while index < chars.count, [" ", "\t", "\n", "\r", "\u{0C}"].contains(chars[index]) {
      index += 1
    }
  }

  mutating func skipSeparator() {
    skipSpaces()
    if index < chars.count, chars[index] == "," {
      index += 1
      skipSpaces()
    }
  }

  func isDigit(_ i: Int) -> Bool {
    i < chars.count && chars[i].value >= 48 && chars[i].value <= 57
  }

  /// True when a number starts at the current index.
  var atNumber: Bool {
    guard index < chars.count else { return false }
    let c = chars[index]
    return c == "+" || c == "-" || c == "." || isDigit(index)
  }

  mutating func number() throws -> CGFloat {
    let start = index
    var i = index
    if i < chars.count, chars[i] == "+" || chars[i] == "-" { i += 1 }
    var digits = 0
    while isDigit(i) {
      i += 1
      digits += 1
    }
    if i < chars.count, chars[i] == "." {
      i += 1
      while isDigit(i) {
        i += 1
        digits += 1
      }
    }
    guard digits > 0 else { throw error("a number") }
    if i < chars.count, chars[i] == "e" || chars[i] == "E" {
      var j = i + 1
      if j < chars.count, chars[j] == "+" || chars[j] == "-" { j += 1 }
      if isDigit(j) {
        while isDigit(j) { j += 1 }
        i = j
      }
    }
    let text = String(String.UnicodeScalarView(chars[start..<i]))
    guard let value = Double(text), value.isFinite else { throw error("a finite number") }
    index = i
    skipSeparator()
    return CGFloat(value)
  }

  mutating func flag() throws -> Bool {
    guard index < chars.count, chars[index] == "0" || chars[index] == "1" else {
      throw error("an arc flag (0 or 1)")
    }
    let value = chars[index] == "1"
    index += 1
    skipSeparator()
    return value
  }

  /// A number that is a coordinate or a length: within ±`Limits.maxCoordinate`.
  mutating func coordinate() throws -> CGFloat {
    let start = index
    let v = try number()
    guard abs(v) <= Limits.maxCoordinate else {
      index = start
      throw error("a coordinate within ±\(Int(exactly: Limits.maxCoordinate) ?? 0) (maxCoordinate)")
    }
    return v
  }

  mutating func point(relative: Bool) throws -> CGPoint {
    let start = index
    let x = try coordinate()
    let y = try coordinate()
    let p = relative ? CGPoint(x: current.x + x, y: current.y + y) : CGPoint(x: x, y: y)
    return try reached(p, from: start)
  }

  /// Relative steps add up: the point they reach is held to the same range.
  mutating func reached(_ p: CGPoint, from start: Int) throws -> CGPoint {
    guard abs(p.x) <= Limits.maxCoordinate, abs(p.y) <= Limits.maxCoordinate else {
      index = start
      throw error(
        "a point within ±\(Int(exactly: Limits.maxCoordinate) ?? 0) (maxCoordinate) once relative steps are added"
      )
    }
    return p
  }

  /// Starts a subpath at the current point when the last one was closed, so
  /// every drawing element follows a move.
  mutating func beginDrawing() {
    if closedSinceMove {
      path.move(to: current)
      closedSinceMove = false
    }
  }

  mutating func parse() throws -> CGPath {
    skipSpaces()
    var first = true
    while index < chars.count {
      let c = chars[index]
      let letter = Character(c)
      guard "MmLlHhVvCcSsQqTtAaZz".contains(letter) else {
        throw error(first ? "a moveto command (M or m)" : "a path command")
      }
      if first && letter != "M" && letter != "m" { throw error("a moveto command (M or m)") }
      first = false
      index += 1
      skipSpaces()
      try command(letter)
    }
    return CGPath(elements: path.elements)
  }

  mutating func command(_ letter: Character) throws {
    let relative = letter.isLowercase
    let upper = Character(letter.uppercased())
    if upper == "Z" {
      path.closeSubpath()
      current = subpathStart
      closedSinceMove = true
      lastCubicControl = nil
      lastQuadControl = nil
      // A close may be followed directly by a number only in error.
      skipSpaces()
      return
    }
    var repeatIndex = 0
    repeat {
      var cubic: CGPoint?
      var quad: CGPoint?
      switch upper {
      case "M":
        let p = try point(relative: relative)
        if repeatIndex == 0 {
          path.move(to: p)
          subpathStart = p
          closedSinceMove = false
        } else {
          // Extra pairs after a moveto are implicit linetos.
          beginDrawing()
          path.addLine(to: p)
        }
        current = p
      case "L":
        let p = try point(relative: relative)
        beginDrawing()
        path.addLine(to: p)
        current = p
      case "H":
        let start = index
        let x = try coordinate()
        let p = try reached(CGPoint(x: relative ? current.x + x : x, y: current.y), from: start)
        beginDrawing()
        path.addLine(to: p)
        current = p
      case "V":
        let start = index
        let y = try coordinate()
        let p = try reached(CGPoint(x: current.x, y: relative ? current.y + y : y), from: start)
        beginDrawing()
        path.addLine(to: p)
        current = p
      case "C":
        let c1 = try point(relative: relative)
        let c2 = try point(relative: relative)
        let p = try point(relative: relative)
        beginDrawing()
        path.addCurve(to: p, control1: c1, control2: c2)
        cubic = c2
        current = p
      case "S":
        let c1 = reflect(lastCubicControl)
        let c2 = try point(relative: relative)
        let p = try point(relative: relative)
        beginDrawing()
        path.addCurve(to: p, control1: c1, control2: c2)
        cubic = c2
        current = p
      case "Q":
        let c = try point(relative: relative)
        let p = try point(relative: relative)
        beginDrawing()
        path.addQuadCurve(to: p, control: c)
        quad = c
        current = p
      case "T":
        let c = reflect(lastQuadControl)
        let p = try point(relative: relative)
        beginDrawing()
        path.addQuadCurve(to: p, control: c)
        quad = c
        current = p
      case "A":
        let rx = try coordinate()
        let ry = try coordinate()
        let rotation = try number()
        let largeArc = try flag()
        let sweep = try flag()
        let p = try point(relative: relative)
        beginDrawing()
        addArc(to: p, rx: rx, ry: ry, degrees: rotation, largeArc: largeArc, sweep: sweep)
        current = p
      default:
        throw error("a path command")
      }
      lastCubicControl = cubic
      lastQuadControl = quad
      repeatIndex += 1
      if path.elements.count > Limits.maxPathElements {
        throw error("at most \(Limits.maxPathElements) path elements (maxPathElements)")
      }
    } while atNumber
  }

  func reflect(_ control: CGPoint?) -> CGPoint {
    guard let control else { return current }
    return CGPoint(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
  }

  /// The endpoint-to-center conversion of SVG 1.1 (implementation notes
  /// F.6.5 and F.6.6), then one cubic per quarter turn or less.
  func addArc(
    to end: CGPoint, rx rxIn: CGFloat, ry ryIn: CGFloat, degrees: CGFloat, largeArc: Bool,
    sweep: Bool
  ) {
    let start = current
    if start == end { return }
    var rx = abs(rxIn)
    var ry = abs(ryIn)
    if rx == 0 || ry == 0 {
      path.addLine(to: end)
      return
    }
    let phi = degrees * .pi / 180
    let cosPhi = cos(phi)
    let sinPhi = sin(phi)
    let dx = (start.x - end.x) / 2
    let dy = (start.y - end.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    // Radii too small to reach the end point are scaled up just enough.
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      let s = lambda.squareRoot()
      rx *= s
      ry *= s
    }
    let rx2 = rx * rx
    let ry2 = ry * ry
    let denominator = rx2 * y1 * y1 + ry2 * x1 * x1
    var coefficient: CGFloat = 0
    if denominator > 0 {
      coefficient = max(0, (rx2 * ry2 - denominator) / denominator).squareRoot()
    }
    if largeArc == sweep { coefficient = -coefficient }
    let cxp = coefficient * rx * y1 / ry
    let cyp = -coefficient * ry * x1 / rx
    let cx = cosPhi * cxp - sinPhi * cyp + (start.x + end.x) / 2
    let cy = sinPhi * cxp + cosPhi * cyp + (start.y + end.y) / 2

    func angle(_ ux: CGFloat, _ uy: CGFloat, _ vx: CGFloat, _ vy: CGFloat) -> CGFloat {
      atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    }
    let theta1 = angle(1, 0, (x1 - cxp) / rx, (y1 - cyp) / ry)
    var delta = angle((x1 - cxp) / rx, (y1 - cyp) / ry, (-x1 - cxp) / rx, (-y1 - cyp) / ry)
    if !sweep && delta > 0 { delta -= 2 * .pi }
    if sweep && delta < 0 { delta += 2 * .pi }

    let segments = Int(clamping: abs(delta) / (.pi / 2) - 1e-9, to: 1...8, rounding: .up)
    let step = delta / CGFloat(segments)
    let k = 4 / 3 * tan(step / 4)
    func mapped(_ ux: CGFloat, _ uy: CGFloat) -> CGPoint {
      let x = ux * rx
      let y = uy * ry
      return CGPoint(x: cosPhi * x - sinPhi * y + cx, y: sinPhi * x + cosPhi * y + cy)
    }
    var t = theta1
    for i in 0..<segments {
      let t2 = t + step
      let (c0, s0, c3, s3) = (cos(t), sin(t), cos(t2), sin(t2))
      let p1 = mapped(c0 - k * s0, s0 + k * c0)
      let p2 = mapped(c3 + k * s3, s3 - k * c3)
      let p3 = i == segments - 1 ? end : mapped(c3, s3)
      path.addCurve(to: p3, control1: p1, control2: p2)
      t = t2
    }
  }
}
