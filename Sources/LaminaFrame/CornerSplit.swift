import Foundation
import Lamina

/// Only the corners of a rounded rect need a per-fragment distance: an item
/// in the rounded rect's own plane (up to scale and translation) is cut
/// into the part away from the corners, drawn by the plain programs, and
/// the four corner squares, drawn by the effect shader. The pieces do not
/// overlap and their seams are neither grown nor antialiased, so they join
/// exactly; on llvmpipe this keeps most of a rounded layer's fill as cheap
/// as a square one.
extension FrameBuilder {
  enum CornerRole {
    /// The item's own rounded fill (`item.shape`).
    case fill
    /// The item clipped by the rounded rect.
    case clip(ClipEffect)
  }

  /// The pieces of `item` inside `shape` (in the plane `toShape` maps the
  /// item's into, an axis-aligned affine map); nil when it cannot be split.
  func splitAtCorners(_ item: DrawItem, shape: RoundedRect, toShape: Homography, role: CornerRole)
    -> [DrawItem]?
  {
    guard toShape.isAxisAlignedAffine, item.clippedPolygon == nil, let back = toShape.inverse else {
      return nil
    }
    let radius = CGFloat(shape.radii.max())
    let s = shape.rect
    guard radius > 0, s.width > 2 * radius, s.height > 2 * radius else { return nil }
    func toShapeRect(_ r: CGRect, _ map: Homography) -> CGRect {
      let a = map.apply(Double(r.minX), Double(r.minY))
      let b = map.apply(Double(r.maxX), Double(r.maxY))
      return CGRect(
        x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
    let whole = toShapeRect(item.rect, toShape)  // the item, in the shape's plane
    let inside = whole.intersection(s)
    guard !inside.isNull, inside.width > 0, inside.height > 0 else { return [] }
    // Edge bits of the item's sides, in the shape's plane (a negative scale swaps sides).
    let flipX = toShape.m.0 < 0
    let flipY = toShape.m.4 < 0
    func bit(_ b: UInt8) -> Bool { item.edgeMask & b != 0 }
    let wholeMinX = bit(flipX ? Self.maxXEdge : Self.minXEdge)
    let wholeMaxX = bit(flipX ? Self.minXEdge : Self.maxXEdge)
    let wholeMinY = bit(flipY ? Self.maxYEdge : Self.minYEdge)
    let wholeMaxY = bit(flipY ? Self.minYEdge : Self.maxYEdge)

    let x0 = s.minX + radius
    let x1 = s.maxX - radius
    let y0 = s.minY + radius
    let y1 = s.maxY - radius
    // Corners reach a little beyond the rounded rect, for its antialiasing.
    let reach =
      2 / max(Self.pixelsPerUnit(item.matrix, item.rect.midX, item.rect.midY), 0.01)
      * CGFloat(abs(toShape.m.0))
    let outer = whole.intersection(s.insetBy(dx: -reach, dy: -reach))
    var pieces: [DrawItem] = []
    func add(_ xLo: CGFloat, _ xHi: CGFloat, _ yLo: CGFloat, _ yHi: CGFloat, corner: Bool) {
      let within = corner ? outer : inside
      let lx = max(xLo, within.minX)
      let hx = min(xHi, within.maxX)
      let ly = max(yLo, within.minY)
      let hy = min(yHi, within.maxY)
      guard hx - lx > 1e-9, hy - ly > 1e-9 else { return }
      let area = CGRect(x: lx, y: ly, width: hx - lx, height: hy - ly)
      // A side keeps the item's edge where it is one; a plain piece's side
      // on the rounded rect's straight part is a real edge too.
      func side(_ value: CGFloat, _ itemEdge: CGFloat, _ itemBit: Bool, _ shapeEdge: CGFloat)
        -> Bool
      {
        if abs(value - itemEdge) < 1e-9 { return itemBit }
        return !corner && abs(value - shapeEdge) < 1e-9
      }
      var edges: UInt8 = 0
      if side(area.minX, whole.minX, wholeMinX, s.minX) {
        edges |= flipX ? Self.maxXEdge : Self.minXEdge
      }
      if side(area.maxX, whole.maxX, wholeMaxX, s.maxX) {
        edges |= flipX ? Self.minXEdge : Self.maxXEdge
      }
      if side(area.minY, whole.minY, wholeMinY, s.minY) {
        edges |= flipY ? Self.maxYEdge : Self.minYEdge
      }
      if side(area.maxY, whole.maxY, wholeMaxY, s.maxY) {
        edges |= flipY ? Self.minYEdge : Self.maxYEdge
      }
      guard var piece = subItem(item, toShapeRect(area, back)) else { return }
      piece.edgeMask = edges
      if corner {
        switch role {
        case .fill: piece.edgeMask = edges | cornerGrowth(area, outer, flipX, flipY)
        case .clip(let clip): piece.clip = clip
        }
      } else if case .fill = role {
        piece.shape = nil
      }
      pieces.append(piece)
    }
    let far = CGFloat.infinity
    // Plain pieces first, then the corners: they do not overlap, so the
    // order is free, and the plain ones batch with their neighbours.
    add(x0, x1, -far, far, corner: false)
    add(-far, x0, y0, y1, corner: false)
    add(x1, far, y0, y1, corner: false)
    add(-far, x0, -far, y0, corner: true)
    add(x1, far, -far, y0, corner: true)
    add(x1, far, y1, far, corner: true)
    add(-far, x0, y1, far, corner: true)
    return pieces
  }

  /// A shape piece grows (for the shape's own antialiasing) on its sides on
  /// the outside of the rounded rect.
  private func cornerGrowth(_ area: CGRect, _ outer: CGRect, _ flipX: Bool, _ flipY: Bool) -> UInt8
  {
    var edges: UInt8 = 0
    if abs(area.minX - outer.minX) < 1e-9 { edges |= flipX ? Self.maxXEdge : Self.minXEdge }
    if abs(area.maxX - outer.maxX) < 1e-9 { edges |= flipX ? Self.minXEdge : Self.maxXEdge }
    if abs(area.minY - outer.minY) < 1e-9 { edges |= flipY ? Self.maxYEdge : Self.minYEdge }
    if abs(area.maxY - outer.maxY) < 1e-9 { edges |= flipY ? Self.minYEdge : Self.maxYEdge }
    return edges
  }

  /// The part `local` (in the item's plane) of an item, its texture
  /// coordinates interpolated; its bounds hold the corners its
  /// antialiasing margin grows it to, as `makeItem`'s do (a pixel around
  /// the piece alone missed them on a corner of a layer seen nearly
  /// edge-on, and a partial redraw left them out: finding
  /// corner-piece-bounds-under-slanted-projection).
  func subItem(_ item: DrawItem, _ local: CGRect) -> DrawItem? {
    let r = item.rect
    guard r.width > 0, r.height > 0 else { return nil }
    var out = item.cropped(to: local)
    guard let bounds = clipTargetBounds(local, item.matrix), !bounds.isEmpty else { return nil }
    let grown = Self.grownCorners(local, item.matrix)
    out.bounds =
      grown.isNull ? bounds : bounds.union(PixelRect(enclosing: grown)).intersection(targetBounds)
    return out
  }
}
