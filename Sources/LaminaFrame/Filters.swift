import Foundation
import Lamina

/// A layer's `filters`, as GPU passes over its whole rendering (background,
/// contents, sublayers, border), before its mask and opacity: color filters
/// as a 4×4 matrix and bias on straight (un-premultiplied) color, clamped
/// after each filter, and Gaussian blurs on premultiplied color.
package struct FilterChain: Equatable {
  package enum Stage: Equatable {
    /// `out = clamp(matrix × (r, g, b, a) + bias)` on straight color;
    /// `matrix` holds the output rows.
    case color(matrix: [Float], bias: SIMD4<Float>)
    /// A Gaussian of this standard deviation, in target pixels.
    case blur(sigma: Float)
  }

  package var stages: [Stage]

  /// How far the result reaches beyond the rendering, in target pixels
  /// (three standard deviations of the blurs together).
  package var reach: Int {
    let variance = stages.reduce(Float(0)) {
      if case .blur(let s) = $1 { return $0 + s * s }
      return $0
    }
    return Int(clamping: 3 * variance.squareRoot(), to: 0...(1 << 24), rounding: .up)
  }

  /// Whether the chain gives a transparent pixel some alpha (a color
  /// matrix's alpha bias), so that it fills the whole area it runs over.
  package var fillsTransparentPixels: Bool {
    // What the chain makes of a transparent pixel (straight color).
    var c = SIMD4<Float>(0, 0, 0, 0)
    for case .color(let m, let bias) in stages where m.count == 16 {
      let rows = (0..<4).map { r in
        m[r * 4] * c.x + m[r * 4 + 1] * c.y + m[r * 4 + 2] * c.z + m[r * 4 + 3] * c.w
      }
      c = (SIMD4(rows[0], rows[1], rows[2], rows[3]) + bias).clamped(
        lowerBound: .zero, upperBound: .one)
    }
    return c.w > 0
  }

  /// The chain of `filters` (CIFilter values; unknown ones are skipped), or
  /// nil when none applies. `pixelsPerPoint` converts blur radii.
  init?(_ filters: [Any], pixelsPerPoint: Float) {
    var stages: [Stage] = []
    for case let filter as CIFilter in filters {
      if let stage = Self.stage(filter, pixelsPerPoint: pixelsPerPoint) { stages.append(stage) }
    }
    guard !stages.isEmpty else { return nil }
    self.stages = stages
  }

  static func number(_ filter: CIFilter, _ key: String) -> Float {
    Float((filter.value(forKey: key) as? CGFloat) ?? 0)
  }

  static func vector(_ filter: CIFilter, _ key: String) -> [Float] {
    let values = (filter.value(forKey: key) as? CIVector)?.values ?? []
    return (0..<4).map { $0 < values.count ? Float(values[$0]) : 0 }
  }

  /// Rec. 709 luma weights.
  static let luma: [Float] = [0.2126, 0.7152, 0.0722]

  static func stage(_ filter: CIFilter, pixelsPerPoint: Float) -> Stage? {
    switch filter.filterName {
    case "CIGaussianBlur":
      let sigma = number(filter, "inputRadius") * pixelsPerPoint
      return sigma > 0 ? .blur(sigma: sigma) : nil
    case "CIColorMatrix":
      let rows = ["inputRVector", "inputGVector", "inputBVector", "inputAVector"].flatMap {
        vector(filter, $0)
      }
      let bias = vector(filter, "inputBiasVector")
      return .color(matrix: rows, bias: SIMD4(bias[0], bias[1], bias[2], bias[3]))
    case "CIColorControls":
      // Saturation against Rec. 709 luma, then brightness added, then
      // contrast about 0.5: c·(S·x + b − 0.5) + 0.5.
      let s = number(filter, "inputSaturation")
      let b = number(filter, "inputBrightness")
      let c = number(filter, "inputContrast")
      var m = identity
      for row in 0..<3 {
        for col in 0..<3 {
          m[row * 4 + col] = c * ((1 - s) * luma[col] + (row == col ? s : 0))
        }
      }
      let offset = c * (b - 0.5) + 0.5
      return .color(matrix: m, bias: SIMD4(offset, offset, offset, 0))
    case "CIHueAdjust":
      // CSS hue-rotate.
      let a = number(filter, "inputAngle")
      let cs = cos(a)
      let sn = sin(a)
      let rgb: [Float] = [
        0.213 + cs * 0.787 - sn * 0.213, 0.715 - cs * 0.715 - sn * 0.715,
        0.072 - cs * 0.072 + sn * 0.928,
        0.213 - cs * 0.213 + sn * 0.143, 0.715 + cs * 0.285 + sn * 0.140,
        0.072 - cs * 0.072 - sn * 0.283,
        0.213 - cs * 0.213 - sn * 0.787, 0.715 - cs * 0.715 + sn * 0.715,
        0.072 + cs * 0.928 + sn * 0.072,
      ]
      return .color(matrix: expand(rgb), bias: .zero)
    case "CIColorInvert":
      var m = identity
      for i in 0..<3 { m[i * 5] = -1 }
      return .color(matrix: m, bias: SIMD4(1, 1, 1, 0))
    case "CISepiaTone":
      // CSS sepia(), mixed with the identity by the intensity.
      let i = max(0, min(1, number(filter, "inputIntensity")))
      let sepia: [Float] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
      let mixed = (0..<9).map { k in (1 - i) * (k % 4 == 0 ? 1 : 0) + i * sepia[k] }
      return .color(matrix: expand(mixed), bias: .zero)
    default:
      return nil  // blend modes belong to compositingFilter
    }
  }

  static let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

  /// A 3×3 color matrix (rows) as 4×4, alpha untouched.
  static func expand(_ m: [Float]) -> [Float] {
    [m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, m[6], m[7], m[8], 0, 0, 0, 0, 1]
  }
}

extension FrameBuilder {
  /// Wraps what the layer drew (from `start`) into one offscreen group that
  /// the renderer filters before compositing; a blur's reach widens it.
  mutating func applyFilters(
    of layer: CALayer, toTarget: CATransform3D, from start: Int, in commands: inout [DrawCommand]
  ) {
    guard let filters = layer.filters, !filters.isEmpty, start < commands.count else { return }
    // Points to pixels for the blur radius: the layer's on-screen scale.
    let a = toTarget.m11 * toTarget.m22 - toTarget.m12 * toTarget.m21
    let w = max(toTarget.m44, 1e-6)
    let scale = Float((abs(a).squareRoot() / w))
    guard let chain = FilterChain(filters, pixelsPerPoint: scale > 0 ? scale : 1) else { return }
    let range = start..<commands.count
    // A chain that gives transparent pixels alpha fills its whole area, so
    // the area shows: it is laid out in points as the layer is, what the
    // layer's geometry covers rounded out to whole points, and not the
    // bounds with the antialiasing reach they add in pixels (4 points
    // around a path's fill at scale 1, 2 at scale 2: finding
    // alpha-bias-filter-area-in-pixels-at-scale-2). Rounded out to pixels
    // only, a layer's edge on a half point would be biased over the whole
    // edge pixel at scale 1 and over none of the outer half at scale 2.
    let fills = chain.fillsTransparentPixels
    var bounds = commands[range].reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
      $0.union(fills ? Self.coveredPixels($1) : $1.bounds)
    }
    if fills { bounds = roundedOutToPoints(bounds) }
    let reach = chain.reach
    bounds = PixelRect(
      x: bounds.x - reach, y: bounds.y - reach, width: bounds.width + 2 * reach,
      height: bounds.height + 2 * reach
    ).intersection(targetBounds)
    guard !bounds.isEmpty else { return }
    if let filtered = Self.filteredColors(commands[range], chain) {
      commands.replaceSubrange(range, with: filtered)
      return
    }
    wrapTail(of: &commands, from: start, bounds: bounds, reason: "filters of \(layer.name ?? "a layer")") {
      $0.filter = chain
    }
  }
}

extension FrameBuilder {
  /// `rect` grown to the nearest whole points around it (the grid of
  /// `canvasToPixels`: the canvas's points, or a raster's).
  func roundedOutToPoints(_ rect: PixelRect) -> PixelRect {
    let m = canvasToPixels
    guard !rect.isEmpty, m.m11 > 0, m.m22 > 0, m.m12 == 0, m.m21 == 0 else { return rect }
    let x0 = ((CGFloat(rect.x) - m.m41) / m.m11).rounded(.down) * m.m11 + m.m41
    let y0 = ((CGFloat(rect.y) - m.m42) / m.m22).rounded(.down) * m.m22 + m.m42
    let x1 = ((CGFloat(rect.maxX) - m.m41) / m.m11).rounded(.up) * m.m11 + m.m41
    let y1 = ((CGFloat(rect.maxY) - m.m42) / m.m22).rounded(.up) * m.m22 + m.m42
    return PixelRect(enclosing: CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)).union(rect)
  }

  /// The pixels a command's geometry covers: an item's polygon rounded out
  /// to whole pixels, without the pixel of antialiasing reach (more for a
  /// path's fill ribbon) that its bounds add, where edge coverage is zero
  /// or faint; a group's bounds.
  static func coveredPixels(_ command: DrawCommand) -> PixelRect {
    guard case .item(let item) = command else { return command.bounds }
    let m = item.matrix
    var box = CGRect.null
    for p in item.polygon {
      let q = m.apply(p.x, p.y)
      guard q.w > 0 else { return item.bounds }
      box = box.union(CGRect(x: q.x / q.w, y: q.y / q.w, width: 0, height: 0))
    }
    guard !box.isNull, box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite
    else { return item.bounds }
    return PixelRect(enclosing: box).intersection(item.bounds)
  }
}

extension FrameBuilder {
  /// A `compositingFilter` blend mode: what the layer drew (from `start`,
  /// its opacity applied) combines with what is behind it by that mode. A
  /// single plain item blends as it is; anything else becomes one group
  /// that blends when composited.
  mutating func applyCompositingFilter(
    of layer: CALayer, from start: Int, in commands: inout [DrawCommand]
  ) {
    guard let filter = layer.compositingFilter, start < commands.count else { return }
    let name = (filter as? String) ?? (filter as? CIFilter)?.filterName ?? ""
    guard let blend = BlendMode(compositingFilter: name) else {
      Diagnostics.warnOnce(
        "compositingFilter '\(name)' of \(layer) is not a blend mode or compositing operator "
          + "Lamina knows; the layer composites source-over")
      return
    }
    guard blend != .sourceOver else { return }
    let range = start..<commands.count
    if range.count == 1, case .item(var item) = commands[start], !item.hasEffects {
      item.blend = blend
      commands[start] = .item(item)
      return
    }
    wrapTail(of: &commands, from: start, reason: "\(name) of \(layer.name ?? "a layer")") {
      $0.blend = blend
    }
  }
}

extension FrameBuilder {
  /// A layer's `backgroundFilters`: a backdrop group at `index`, before the
  /// layer draws, covering its (rounded) bounds.
  mutating func insertBackdrop(
    of layer: CALayer, toTarget: CATransform3D, at index: Int, in commands: inout [DrawCommand]
  ) {
    guard let filters = layer.backgroundFilters, !filters.isEmpty else { return }
    let a = toTarget.m11 * toTarget.m22 - toTarget.m12 * toTarget.m21
    let scale = Float(abs(a).squareRoot() / max(toTarget.m44, 1e-6))
    guard let chain = FilterChain(filters, pixelsPerPoint: scale > 0 ? scale : 1),
      let targetToLayer = Homography(toTarget).inverse,
      let bounds = clipTargetBounds(layer.bounds, toTarget), !bounds.isEmpty
    else { return }
    let group = makeGroup(
      [], bounds: bounds, reason: "background filters of \(layer.name ?? "a layer")")
    group.filter = chain
    group.backdrop = true
    group.clip = ClipEffect(shape: RoundedRect(layer: layer), itemToClip: targetToLayer)
    commands.insert(.group(group), at: index)
  }
}

extension FrameBuilder {
  /// A chain of color filters over items of one color each (solids, path
  /// fills and strokes, in source-over), applied to each item's color
  /// instead of in an offscreen pass (a Lottie layer's Fill or Tint effect
  /// over its shapes); nil when it cannot be. A color stage that leaves
  /// alpha as it is and whose color rows do not read alpha is affine in
  /// premultiplied color, P' = A·P + b·α, and source-over composites
  /// premultiplied colors with weights of their alphas alone: filtering
  /// each item and compositing them is filtering their composite, wherever
  /// they overlap, as long as no item's filtered color leaves [0, 1] (the
  /// composite's straight color is a convex combination of the items',
  /// so then neither is clamped).
  static func filteredColors(_ commands: ArraySlice<DrawCommand>, _ chain: FilterChain) -> [DrawCommand]? {
    for stage in chain.stages {
      guard case .color(let m, let bias) = stage, m.count == 16,
        m[3] == 0, m[7] == 0, m[11] == 0, m[12] == 0, m[13] == 0, m[14] == 0, m[15] == 1,
        bias.w == 0
      else { return nil }
    }
    var out: [DrawCommand] = []
    out.reserveCapacity(commands.count)
    for command in commands {
      guard case .item(var item) = command, item.blend == .sourceOver else { return nil }
      switch item.material {
      case .solid, .path: break
      default: return nil
      }
      let p = item.color
      guard p.w > 0 else {
        out.append(command)
        continue
      }
      var c = SIMD3(p.x, p.y, p.z) / p.w
      for case .color(let m, let bias) in chain.stages {
        let next = SIMD3(
          m[0] * c.x + m[1] * c.y + m[2] * c.z + bias.x,
          m[4] * c.x + m[5] * c.y + m[6] * c.z + bias.y,
          m[8] * c.x + m[9] * c.y + m[10] * c.z + bias.z)
        let eps: Float = 1e-5
        guard next.min() >= -eps, next.max() <= 1 + eps else { return nil }
        c = next.clamped(lowerBound: .zero, upperBound: .one)
      }
      item.color = SIMD4(c * p.w, p.w)
      out.append(.item(item))
    }
    return out
  }
}
