import Foundation
import Lamina

/// `masksToBounds`: the commands of a layer's contents and subtree are
/// clipped to its rounded bounds, from the cheapest way that is exact:
///
/// 1. an item that lies inside the clip (away from rounded corners) is left
///    alone, one that lies outside is dropped;
/// 2. an item and a square-cornered clip that are both axis-aligned in the
///    target are intersected on the CPU (the item's rect shrinks, its
///    texture coordinates follow, its edges keep their antialiasing): the
///    item stays in its batch and no fragment pays for the clip;
/// 3. an item in the clip's plane (up to scale and translation) under
///    rounded corners is cut likewise and split at the corners
///    (`CornerSplit.swift`): only the four corner pieces carry the clip;
/// 4. anything else (rotated against the clip, in perspective) carries the clip to
///    the fragment shader: the clip's rounded rect and the homography from
///    the item's plane to the clip's plane; the signed distance gives an
///    antialiased edge under any transform;
/// 5. an item clipped already by a square-cornered clip that maps onto
///    this one without rotation (nested precompositions) takes one clip,
///    the two rects intersected;
/// 6. an item clipped already otherwise (nested clips) and a group that is clipped
///    already or casts a blurred shadow are clipped when composited: each
///    run of such commands is wrapped in an offscreen group whose composite
///    quad carries the outer clip (a pass the size of the clip); the other
///    commands are clipped as above.
extension FrameBuilder {
  mutating func applyClip(
    of layer: CALayer, toTarget: CATransform3D, range: Range<Int>, in commands: inout [DrawCommand]
  ) {
    applyClip(
      RoundedRect(layer: layer), toTarget: toTarget, name: layer.name ?? "a layer", range: range,
      in: &commands)
  }

  /// Clips `range` of `commands` to `shape`, a rounded rect of the plane
  /// `toTarget` maps to the target, as `masksToBounds` clips (`name`
  /// names the groups it makes).
  mutating func applyClip(
    _ shape: RoundedRect, toTarget: CATransform3D, name: String, range: Range<Int>,
    in commands: inout [DrawCommand]
  ) {
    guard !range.isEmpty else { return }
    let clipPlane = Homography(toTarget)
    guard let targetToClip = clipPlane.inverse else {
      commands.removeSubrange(range)  // seen edge-on: nothing shows
      return
    }
    let clipBounds = clipTargetBounds(shape.rect, toTarget)
    // First which commands show at all, and which of them are clipped
    // already (or are passes that cannot take a clip): those go, in runs,
    // into groups that carry the clip when composited. The others take the
    // clip themselves, as if there were no such command: an item inside
    // the clip must not go through a clipped group, where the clip's edge
    // would antialias its own edge a second time (halving its coverage).
    var showing: [(DrawCommand, Placement)] = []
    for command in commands[range] {
      switch command {
      case .item(let item):
        let placement = classify(item, Homography(item.matrix).then(targetToClip), shape)
        if placement == .outside { continue }
        showing.append((command, placement))
      case .group(let group):
        // A group whose drawing lies in the clip needs none: composited
        // through it, its edges on the clip's would be antialiased twice
        // (the metamorphic finding alone seed 5200475: a faded scroll
        // layer's two backgrounds, turned).
        showing.append((command, lies(group, within: shape, targetToClip) ? .inside : .partial))
      }
    }
    func needsGroup(_ command: DrawCommand, _ placement: Placement) -> Bool {
      switch command {
      case .item(let item): return placement == .partial && item.clip != nil
      case .group(let group): return group.clip != nil || group.shadow != nil
      }
    }
    var kept: [DrawCommand] = []
    var run: [DrawCommand] = []
    func closeRun() {
      guard !run.isEmpty else { return }
      let bounds = run.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
        .intersection(clipBounds ?? targetBounds)
      let group = makeGroup(run, bounds: bounds, reason: "nested clip of \(name)")
      group.clip = ClipEffect(shape: shape, itemToClip: targetToClip)
      if !bounds.isEmpty { kept.append(.group(group)) }
      run = []
    }
    for (command, placement) in showing {
      // An item clipped already whose two clips are one rect: clipped by
      // it, in no group.
      if case .item(var item) = command, placement == .partial, let inner = item.clip,
        let combined = intersectedClip(
          inner, outer: shape, itemToOuter: Homography(item.matrix).then(targetToClip))
      {
        closeRun()
        guard let combined else { continue }  // the clips do not meet
        item.clip = combined
        if let clipBounds { item.bounds = item.bounds.intersection(clipBounds) }
        if !item.bounds.isEmpty { kept.append(.item(item)) }
        continue
      }
      // A group clipped already (its composite in the target's plane),
      // likewise.
      if case .group(let group) = command, group.shadow == nil, let inner = group.clip,
        let combined = intersectedClip(inner, outer: shape, itemToOuter: targetToClip)
      {
        closeRun()
        guard let combined else { continue }
        let clipped = group.copy()
        clipped.clip = combined
        kept.append(.group(clipped))
        continue
      }
      if needsGroup(command, placement) {
        run.append(command)
        continue
      }
      closeRun()
      switch command {
      case .item(var item):
        if placement == .inside {
          kept.append(command)
          continue
        }
        let itemToClip = Homography(item.matrix).then(targetToClip)
        if !shape.isRounded, item.shape == nil, item.clippedPolygon == nil, item.fillsItsRect,
          itemToClip.isAxisAlignedAffine
        {
          if let cut = cutRect(item, itemToClip, shape.rect) { kept.append(.item(cut)) }
          continue
        }
        let clip = ClipEffect(shape: shape, itemToClip: itemToClip)
        if item.shape == nil, item.fillsItsRect,
          let pieces = splitAtCorners(item, shape: shape, toShape: itemToClip, role: .clip(clip))
        {
          kept.append(contentsOf: pieces.map { .item($0) })
          continue
        }
        item.clip = clip
        if let clipBounds { item.bounds = item.bounds.intersection(clipBounds) }
        if !item.bounds.isEmpty { kept.append(.item(item)) }
      case .group(let group):
        if placement == .inside {
          kept.append(command)
          continue
        }
        // A copy: the render tree may keep the group for later frames.
        let clipped = group.copy()
        clipped.clip = ClipEffect(shape: shape, itemToClip: targetToClip)
        kept.append(.group(clipped))
      }
    }
    closeRun()
    commands.replaceSubrange(range, with: kept)
  }

  private enum Placement { case inside, outside, partial }

  /// An item's clip and a second one around it as one clip, when both are
  /// square-cornered and the inner clip's plane maps onto the outer's
  /// without rotation or perspective (a precomposition clipped inside
  /// another, as Lottie documents nest them): their rects intersected in
  /// the outer clip's plane, so that the item needs no offscreen group.
  /// nil: they cannot be one; `.some(nil)`: they do not meet.
  private func intersectedClip(
    _ inner: ClipEffect, outer shape: RoundedRect, itemToOuter: Homography
  ) -> ClipEffect?? {
    guard !inner.shape.isRounded, !shape.isRounded, let clipToItem = inner.itemToClip.inverse
    else { return nil }
    let innerToOuter = clipToItem.then(itemToOuter)
    guard innerToOuter.isAxisAlignedAffine else { return nil }
    let r = inner.shape.rect
    let a = innerToOuter.apply(Double(r.minX), Double(r.minY))
    let b = innerToOuter.apply(Double(r.maxX), Double(r.maxY))
    guard a.z > 1e-12, b.z > 1e-12 else { return nil }
    let (ax, ay, bx, by) = (a.x / a.z, a.y / a.z, b.x / b.z, b.y / b.z)
    let mapped = CGRect(
      x: min(ax, bx), y: min(ay, by), width: abs(bx - ax), height: abs(by - ay))
    let cut = mapped.intersection(shape.rect)
    guard !cut.isNull, cut.width > 0, cut.height > 0 else { return .some(nil) }
    return ClipEffect(shape: RoundedRect(rect: cut), itemToClip: itemToOuter)
  }

  /// Whether everything `group` draws lies in `shape` (`targetToClip`
  /// maps the target to the shape's plane): its items, and its groups',
  /// each inside, and nothing reaching past them (a filter's or a
  /// shadow's spread, a backdrop read behind it).
  private func lies(_ group: GroupPass, within shape: RoundedRect, _ targetToClip: Homography)
    -> Bool
  {
    guard group.filter == nil, group.shadow == nil, !group.backdrop, !group.commands.isEmpty
    else { return false }
    return group.commands.allSatisfy { command in
      switch command {
      case .item(let item):
        return classify(item, Homography(item.matrix).then(targetToClip), shape) == .inside
      case .group(let inner): return lies(inner, within: shape, targetToClip)
      }
    }
  }

  /// Where an item lies relative to the clip, from its corners in the clip's
  /// plane (the rounded rect is convex: a convex polygon whose corners are
  /// all inside it is inside it).
  private func classify(_ item: DrawItem, _ itemToClip: Homography, _ shape: RoundedRect)
    -> Placement
  {
    let rect = shape.rect
    var allInside = true
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for p in item.polygon {
      let q = itemToClip.apply(Double(p.x), Double(p.y))
      guard q.z > 1e-9 else { return .partial }
      let x = q.x / q.z
      let y = q.y / q.z
      minX = min(minX, x)
      maxX = max(maxX, x)
      minY = min(minY, y)
      maxY = max(maxY, y)
      if allInside && !Self.contains(shape, x, y, slack: Self.onTheEdge) { allInside = false }
    }
    // Antialiasing grows items by about a pixel: keep a margin of a point.
    let margin = 1.0
    if maxX < Double(rect.minX) - margin || minX > Double(rect.maxX) + margin
      || maxY < Double(rect.minY) - margin || minY > Double(rect.maxY) + margin
    {
      return .outside
    }
    return allInside ? .inside : .partial
  }

  /// How far outside the clip, in the clip's points, a corner of an item
  /// may lie and still count as inside it: a float rounding of the maps
  /// between the planes, not a distance anything is drawn at. An item
  /// whose edge is the clip's edge (a nine-slice piece of a turned layer
  /// clipped to its bounds) is inside, so that edge is antialiased once,
  /// by the item, whatever layers lie between the two planes; clipped,
  /// the clip's coverage and the item's multiplied there (the metamorphic
  /// finding split-siblings seed 605175: 37/255 where 98 was due, in the
  /// pieces a float rounding had put a hair outside).
  static let onTheEdge = 1e-6

  /// True when (x, y) lies in the rounded rect (or within `slack` of it).
  static func contains(_ shape: RoundedRect, _ x: Double, _ y: Double, slack: Double = 0) -> Bool {
    let r = shape.rect
    guard x >= Double(r.minX) - slack, x <= Double(r.maxX) + slack,
      y >= Double(r.minY) - slack, y <= Double(r.maxY) + slack
    else {
      return false
    }
    let right = x > Double(r.midX)
    let bottom = y > Double(r.midY)
    let radius = Double(
      bottom ? (right ? shape.radii[2] : shape.radii[3]) : (right ? shape.radii[1] : shape.radii[0])
    )
    guard radius > 0 else { return true }
    let cx = right ? Double(r.maxX) - radius : Double(r.minX) + radius
    let cy = bottom ? Double(r.maxY) - radius : Double(r.minY) + radius
    let dx = right ? max(0, x - cx) : max(0, cx - x)
    let dy = bottom ? max(0, y - cy) : max(0, cy - y)
    return dx * dx + dy * dy <= (radius + slack) * (radius + slack)
  }

  /// The item cut to the clip rect when both are axis-aligned: a smaller rect,
  /// texture coordinates scaled with it.
  private func cutRect(_ item: DrawItem, _ itemToClip: Homography, _ clip: CGRect) -> DrawItem? {
    let r = item.rect
    let a = itemToClip.apply(Double(r.minX), Double(r.minY))
    let b = itemToClip.apply(Double(r.maxX), Double(r.maxY))
    let inClip = CGRect(
      x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    let cut = inClip.intersection(clip)
    guard !cut.isNull, cut.width > 0, cut.height > 0, let back = itemToClip.inverse else {
      return nil
    }
    let p = back.apply(Double(cut.minX), Double(cut.minY))
    let q = back.apply(Double(cut.maxX), Double(cut.maxY))
    let local = CGRect(
      x: min(p.x, q.x), y: min(p.y, q.y), width: abs(q.x - p.x), height: abs(q.y - p.y))
    var out = item.cropped(to: local)
    // A cut edge is a real edge now: antialias it.
    if local.minY > r.minY { out.edgeMask |= Self.minYEdge }
    if local.maxX < r.maxX { out.edgeMask |= Self.maxXEdge }
    if local.maxY < r.maxY { out.edgeMask |= Self.maxYEdge }
    if local.minX > r.minX { out.edgeMask |= Self.minXEdge }
    if let bounds = clipTargetBounds(local, item.matrix) { out.bounds = bounds } else { return nil }
    return out
  }

  /// The pixels a rect of a plane can touch (one pixel of antialiasing
  /// around it), nil when any corner is behind the eye.
  func clipTargetBounds(_ rect: CGRect, _ m: CATransform3D) -> PixelRect? {
    var minX = CGFloat.infinity
    var minY = CGFloat.infinity
    var maxX = -CGFloat.infinity
    var maxY = -CGFloat.infinity
    for p in EdgeGeometry.corners(rect) {
      let q = m.apply(p.x, p.y)
      guard q.w > EdgeGeometry.nearW else { return nil }
      minX = min(minX, q.x / q.w)
      maxX = max(maxX, q.x / q.w)
      minY = min(minY, q.y / q.w)
      maxY = max(maxY, q.y / q.w)
    }
    return PixelRect(
      enclosing: CGRect(x: minX - 1, y: minY - 1, width: maxX - minX + 2, height: maxY - minY + 2)
    ).intersection(targetBounds)
  }
}

extension DrawItem {
  /// The item cut to `local` (a part of its rect, in its plane's points),
  /// texture coordinates interpolated.
  func cropped(to local: CGRect) -> DrawItem {
    let r = rect
    var out = self
    func lerp(_ a: Float, _ b: Float, _ t: CGFloat) -> Float { a + (b - a) * Float(t) }
    let tx0 = (local.minX - r.minX) / r.width
    let tx1 = (local.maxX - r.minX) / r.width
    let ty0 = (local.minY - r.minY) / r.height
    let ty1 = (local.maxY - r.minY) / r.height
    out.uv = (
      lerp(uv.u0, uv.u1, tx0), lerp(uv.v0, uv.v1, ty0), lerp(uv.u0, uv.u1, tx1),
      lerp(uv.v0, uv.v1, ty1)
    )
    out.rect = local
    return out
  }
}
