import Foundation
import Lamina
import LaminaFrame

/// A masked group waiting for its place in a mask atlas.
struct AtlasEntry {
  var group: GroupPass
  /// Nil: the composite draws the mask (one path, `FramePlanner.pathMask`).
  var mask: GroupPass?
  /// The canvas pixels both are rendered for.
  var area: PixelRect
  var contentKey: Int
  var maskKey: Int
  /// Where both lie in their atlas (the same place in each).
  var slot: PixelRect
}

/// Masks and the content they mask that are rendered this frame, packed
/// into two atlas targets with the same layout (one holds the masks, the
/// other the masked content), so that sixty masked layers cost two render
/// passes and two waits instead of a hundred and twenty: the masked
/// composite samples both at the same texture coordinates.
package struct MaskAtlas {
  /// The atlas targets: the masks' and the content's.
  var masks: TargetID
  var content: TargetID
  var entries: [AtlasEntry] = []
  /// Shelf packing: the cursor, the current shelf's top and height, the
  /// width used.
  private var x = 0, y = 0, shelf = 0, width = 0

  /// The largest atlas side: what every GLES 3 driver holds (2048).
  static let maxSide = 2048
  /// Pixels between slots (their sampling never reaches a neighbour).
  static let gap = 2

  init(masks: TargetID, content: TargetID) {
    self.masks = masks
    self.content = content
  }

  var height: Int { y + shelf }
  var usedWidth: Int { width }

  /// A slot for `area`, or nil when the atlas is full. A slot's origin has
  /// the parity of the area's (even, `FramePlanner.targetArea`), so that the
  /// 2×2 pixel quads the shaders' derivatives use fall where they fall on
  /// the canvas.
  mutating func place(_ area: PixelRect) -> PixelRect? {
    func aligned(_ v: Int, like p: Int) -> Int { (v & 1) == (p & 1) ? v : v + 1 }
    var sx = aligned(x, like: area.x)
    if sx + area.width > Self.maxSide && x > 0 {
      // Next shelf.
      y += shelf + Self.gap
      x = 0
      shelf = 0
      sx = aligned(0, like: area.x)
    }
    let sy = aligned(y, like: area.y)
    guard sx + area.width <= Self.maxSide, sy + area.height <= Self.maxSide else { return nil }
    x = sx + area.width + Self.gap
    shelf = max(shelf, sy - y + area.height)
    width = max(width, sx + area.width)
    return PixelRect(x: sx, y: sy, width: area.width, height: area.height)
  }
}

extension FramePlanner {
  /// Whether a masked group can wait for the atlas: its content and its mask
  /// are plain items (nothing of theirs is prepared first, nothing reads
  /// what they drew) covering the same area, within the atlas's size.
  static func fitsAtlas(_ group: GroupPass, area: PixelRect, blendEquations: Bool) -> Bool {
    guard let mask = group.mask, mask.mask == nil, mask.shadow == nil, mask.filter == nil,
      !mask.backdrop, targetArea(mask.bounds, area) == area,
      area.width <= MaskAtlas.maxSide, area.height <= MaskAtlas.maxSide
    else { return false }
    return isPlain(group.commands, blendEquations) && isPlain(mask.commands, blendEquations)
  }

  /// Items only (nothing of theirs rendered first), in source-over or,
  /// with the blend equations, a blend mode: a slot starts cleared, as its
  /// own target would, and its viewport keeps what a blend mode reads to
  /// the slot (the screen-blended paths of a Lottie layer's masks).
  private static func isPlain(_ commands: [DrawCommand], _ blendEquations: Bool) -> Bool {
    commands.allSatisfy { command in
      guard case .item(let item) = command else { return false }
      switch item.blend {
      case .sourceOver: break
      case .composite: if !blendEquations { return false }
      default: return false
      }
      switch item.material {
      case .solid, .gradient, .image, .dmabuf, .path: return true
      default: return false
      }
    }
  }

  /// The cache key of rendering `commands` for `area`.
  static func cacheKey(_ commands: [DrawCommand], area: PixelRect) -> Int {
    var hasher = Hasher()
    RasterSignature.combine(area, &hasher)
    RasterSignature.combine(commands, groupBase: 0, into: &hasher)
    return hasher.finalize()
  }

  /// Puts a masked group (and its mask) in the open atlas, opening one (or
  /// the next, when it is full). Its targets are known at once; what is
  /// drawn into them is planned by `flushAtlas`.
  mutating func deferToAtlas(
    _ group: GroupPass, mask: GroupPass?, area: PixelRect, contentKey: Int, maskKey: Int
  ) {
    if atlas == nil { openAtlas() }
    var slot = atlas?.place(area)
    if slot == nil {
      flushAtlas()
      openAtlas()
      slot = atlas?.place(area)
    }
    guard let slot, var open = atlas else { return }
    open.entries.append(
      AtlasEntry(
        group: group, mask: mask, area: area, contentKey: contentKey, maskKey: maskKey, slot: slot))
    atlas = open
    groupTargets[group.id] = open.content
    if let mask { groupTargets[mask.id] = open.masks }
    atlasSlots[group.id] = slot
  }

  private mutating func openAtlas() {
    let masks = addTarget(width: 0, height: 0, role: .pooled, label: "mask atlas")
    let content = addTarget(width: 0, height: 0, role: .pooled, label: "masked content atlas")
    atlas = MaskAtlas(masks: masks, content: content)
  }

  /// Plans the open atlas: its size, its cache entries, and for each of
  /// the two atlases the cache does not hold from an earlier frame, one
  /// pass that clears it and draws every entry into its slot. A single entry keeps
  /// targets of its own, as groups do.
  mutating func flushAtlas() {
    guard let open = atlas else { return }
    atlas = nil
    if open.entries.count == 1, let entry = open.entries.first {
      atlasSlots[entry.group.id] = nil
      flushSingle(entry, masks: open.masks, content: open.content)
      return
    }
    let (width, height) = (open.usedWidth, open.height)
    func key(_ tag: Int, _ keyOf: (AtlasEntry) -> Int) -> Int {
      var hasher = Hasher()
      hasher.combine(tag)
      hasher.combine(width)
      hasher.combine(height)
      for entry in open.entries {
        RasterSignature.combine(entry.slot, &hasher)
        hasher.combine(keyOf(entry))
      }
      return hasher.finalize()
    }
    let maskKey = key(1) { $0.maskKey }
    let contentKey = key(2) { $0.contentKey }
    // Each atlas is drawn only when the cache lacks it: masks that move over
    // still content draw the mask atlas alone (the keys hold the layout, so
    // a cached atlas has the slots of this one).
    // (With no mask drawn, an atlas of masks is neither drawn nor kept.)
    // An atlas this frame made already (the same layout of the same
    // renderings) is taken, not made again (`flushSingle`).
    let madeMasks = cachedPasses[maskKey]
    let madeContent = cachedPasses[contentKey]
    for entry in open.entries {
      if let madeMasks, let mask = entry.mask { groupTargets[mask.id] = madeMasks }
      if let madeContent { groupTargets[entry.group.id] = madeContent }
    }
    let drawsMasks = open.entries.contains { $0.mask != nil } && madeMasks == nil
    let maskHit = !drawsMasks || caches.holdsCachedPass(maskKey)
    let contentHit = madeContent != nil || caches.holdsCachedPass(contentKey)
    if drawsMasks {
      resize(open.masks, width, height, role: .cached(key: maskKey, hit: maskHit))
      cachedPasses[maskKey] = open.masks
    }
    if madeContent == nil {
      resize(open.content, width, height, role: .cached(key: contentKey, hit: contentHit))
      cachedPasses[contentKey] = open.content
    }
    let all = PixelRect(x: 0, y: 0, width: width, height: height)
    for (target, isMask) in [(open.masks, true), (open.content, false)]
    where !(isMask ? maskHit : contentHit) {
      let what = isMask ? "mask atlas" : "masked content atlas"
      drawList(
        [], into: target, region: all, clear: .zero,
        label: "\(what) \(width)x\(height): \(open.entries.count) entries")
      for entry in open.entries {
        guard let group = isMask ? entry.mask : entry.group else { continue }
        drawList(
          group.commands, into: target, region: entry.area, clear: nil, scissor: entry.slot,
          viewport: entry.slot, label: "group \(group.id) \(entry.area) at \(entry.slot): \(group.reason)")
      }
    }
  }

  /// One masked group: its mask's target, then its own, each its area's
  /// size and a cache entry of its own, unless this frame made that
  /// rendering already (the same commands over the same area: two masked
  /// layers under one mask shape), whose target it takes. A second new
  /// entry of one key would push the first out of the cache, back into the
  /// pool, while a pass still to come samples it (intelia_logo_animation
  /// drew another layer's content through a gradient stroke's mask).
  private mutating func flushSingle(_ entry: AtlasEntry, masks: TargetID, content: TargetID) {
    let area = entry.area
    for (target, group, key) in [
      (masks, entry.mask, entry.maskKey), (content, entry.group, entry.contentKey),
    ] {
      guard let group else { continue }
      if let made = cachedPasses[key] {
        groupTargets[group.id] = made
        continue
      }
      let hit = caches.holdsCachedPass(key)
      resize(target, area.width, area.height, role: .cached(key: key, hit: hit))
      cachedPasses[key] = target
      if !hit {
        drawList(
          group.commands, into: target, region: area, clear: .zero,
          label: "group \(group.id) \(area): \(group.reason)")
      }
    }
  }

  private mutating func resize(
    _ id: TargetID, _ width: Int, _ height: Int, role: PlannedTarget.Role
  ) {
    let old = plan.targets[id.index]
    plan.targets[id.index] = PlannedTarget(
      id: id, width: width, height: height, role: role, label: old.label)
  }

  /// The texture coordinates of a group's pixels: its slot of the atlas,
  /// or all of its own target.
  /// Where `area` (canvas pixels) of `group`'s rendering lies in its
  /// texture: in its atlas slot, or its own target, made for the area
  /// `groupAreas` holds (a group made for a shadow's canvas is drawn back
  /// cut to a clip's region; sampled as the whole texture, it was squeezed
  /// into that region: the finding first-frame seed 777499, whose first
  /// frame made the group for its shadow and the next took the shadow from
  /// the cache).
  func textureRect(of group: GroupPass, area: PixelRect) -> (
    u0: Float, v0: Float, u1: Float, v1: Float
  ) {
    guard let id = groupTargets[group.id] else { return (0, 0, 1, 1) }
    let (w, h) = size(of: id)
    guard w > 0, h > 0 else { return (0, 0, 1, 1) }
    let made = groupAreas[group.id] ?? area
    let base = atlasSlots[group.id] ?? PixelRect(x: 0, y: 0, width: w, height: h)
    let x0 = base.x + area.x - made.x
    let y0 = base.y + area.y - made.y
    return (
      Float(x0) / Float(w), Float(y0) / Float(h), Float(x0 + area.width) / Float(w),
      Float(y0 + area.height) / Float(h)
    )
  }
}
