import Foundation
import Lamina
import LaminaTestSupport
import XCTest

@testable import LaminaFrame
@testable import LaminaPlan

/// What the planner is asked about the caches, answered from sets.
struct FakeCaches: PlanCaches {
  var cachedPasses: Set<Int> = []
  var rasters: Set<Int> = []
  var openGLLayersCurrent = false
  func holdsCachedPass(_ key: Int) -> Bool { cachedPasses.contains(key) }
  func holdsRaster(_ key: Int) -> Bool { rasters.contains(key) }
  func openGLLayerNeedsDrawing(_ pass: GLLayerPass) -> Bool { !openGLLayersCurrent }
}

/// Frame plans, made and read without a GPU.
final class FramePlanTests: XCTestCase {
  func frame(_ root: CALayer) -> DrawList {
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    return builder.build(root: root, background: .white)
  }

  /// The plan of `frame`, whole (`tile` pixels a tile) or only `damage`.
  func plan(
    _ frame: DrawList, options: PlanOptions = PlanOptions(), caches: PlanCaches = FakeCaches(),
    tile: Int = 4096, damage: [PixelRect]? = nil
  ) -> FramePlan {
    var planner = FramePlanner(
      width: frame.width, height: frame.height, canvasWidth: min(frame.width, tile),
      canvasHeight: min(frame.height, tile), options: options, caches: caches)
    if let damage { planner.planDamage(frame, rects: damage) } else { planner.planTiles(frame) }
    var plan = planner.plan
    plan.computeLifetimes(samples: options.samples)
    return plan
  }

  func lines(_ plan: FramePlan) -> [String] {
    plan.description.split(separator: "\n").map(String.init)
  }

  /// A solid item covering `rect` (target pixels).
  func item(_ rect: PixelRect, name: String) -> DrawItem {
    DrawItem(
      material: .solid, clippedPolygon: nil,
      rect: CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
      uv: (0, 0, 0, 0), matrix: CATransform3DIdentity, color: SIMD4(0, 0, 0, 1), bounds: rect,
      layerName: name)
  }

  func opacityGroups() -> CALayer {
    let r = root(200, 100)
    for x in [0, 100] as [CGFloat] {
      let group = layer(CGRect(x: x + 5, y: 5, width: 90, height: 90), nil)
      group.opacity = 0.5
      group.addSublayer(layer(CGRect(x: 0, y: 0, width: 60, height: 60), .black, name: "a"))
      group.addSublayer(layer(CGRect(x: 30, y: 30, width: 60, height: 60), .white, name: "b"))
      r.addSublayer(group)
    }
    return r
  }

  /// Two sibling opacity groups (the first repro of issue 13): each its own
  /// target, both read by the canvas pass and freed after it.
  func testTwoOpacityGroupsEachGetATargetReadByTheCanvas() {
    XCTAssertEqual(
      lines(plan(frame(opacityGroups()))),
      [
        "plan 200x100: 3 passes, 4 batches, 3 targets (peak 2 offscreen, 72 KiB)",
        "pass 0: draw T1 96x96 pooled, region [4, 4, 96x96], clear 0 0 0 0"
          + " — group 1 [4, 4, 92x92]: group opacity over 2 overlapping commands",
        "  batch 0: solid, 2 items, 12 indices (a)",
        "pass 1: draw T2 96x96 pooled, region [104, 4, 96x96], clear 0 0 0 0"
          + " — group 2 [104, 4, 92x92]: group opacity over 2 overlapping commands",
        "  batch 0: solid, 2 items, 12 indices (a)",
        "pass 2: draw T0 200x100 canvas, region [0, 0, 200x100], clear 1 1 1 1"
          + " — canvas tile [0, 0, 200x100]; frees T1 T2",
        "  batch 0: image T1 nearest, 1 item, 6 indices",
        "  batch 1: image T2 nearest, 1 item, 6 indices",
        "pass 3: output T0 [0, 0, 200x100] as tile [0, 0, 200x100]",
      ])
  }

  /// A group of opacity 1 with nothing to isolate draws in place; so does a
  /// group holding one plain item, its opacity multiplied into the item.
  func testGroupsWithNothingToIsolateDrawInPlace() throws {
    let plain = GroupPass(
      id: 1, bounds: PixelRect(x: 0, y: 0, width: 60, height: 40), opacity: 1,
      commands: [
        .item(item(PixelRect(x: 0, y: 0, width: 40, height: 40), name: "a")),
        .item(item(PixelRect(x: 20, y: 0, width: 40, height: 40), name: "b")),
      ], reason: "test")
    let single = GroupPass(
      id: 2, bounds: PixelRect(x: 0, y: 50, width: 40, height: 40), opacity: 0.5,
      commands: [.item(item(PixelRect(x: 0, y: 50, width: 40, height: 40), name: "c"))],
      reason: "test")
    XCTAssertEqual(FramePlanner.isolation(of: plain), .none(opacity: 1))
    XCTAssertEqual(FramePlanner.isolation(of: single), .none(opacity: 0.5))
    let f = DrawList(
      width: 100, height: 100, background: .zero, commands: [.group(plain), .group(single)])
    let p = plan(f)
    XCTAssertEqual(
      lines(p),
      [
        "plan 100x100: 1 pass, 1 batch, 1 target (peak 0 offscreen, 0 KiB)",
        "pass 0: draw T0 100x100 canvas, region [0, 0, 100x100], clear 0 0 0 0"
          + " — canvas tile [0, 0, 100x100]",
        "  batch 0: solid, 3 items, 18 indices (a)",
        "pass 1: output T0 [0, 0, 100x100] as tile [0, 0, 100x100]",
      ])
    guard case .draw(let pass) = p.steps[0] else { return XCTFail("\(p)") }
    // The single item carries the group's opacity: alpha 0.5 of 255.
    let alphas: [UInt32] = pass.geometry.vertices.map { $0.color >> 24 }
    XCTAssertEqual(alphas, Array(repeating: 255, count: 8) + Array(repeating: 128, count: 4))
    // Overlapping content at an opacity below 1 still needs its target.
    plain.opacity = 0.5
    XCTAssertEqual(FramePlanner.isolation(of: plain), .offscreen)
  }

  /// Two masked layers under the same mask shape, each put in the atlas
  /// and flushed alone (each inside a group drawn in place), whose content
  /// differs: the second takes the mask target the first made this frame.
  /// A second new cache entry of one key pushed the first out of the cache
  /// into the pool while the canvas pass still sampled it: another layer's
  /// rendering showed through intelia_logo_animation's gradient strokes.
  func testOneFrameMakesEachCacheEntryOnce() throws {
    let area = PixelRect(x: 10, y: 10, width: 40, height: 40)
    var containers: [DrawCommand] = []
    for (i, gray) in [(0, Float(0.2)), (1, Float(0.8))] {
      var content = item(area, name: "content \(i)")
      content.color = SIMD4(gray, gray, gray, 1)
      let mask = GroupPass(
        id: 10 + i, bounds: area, opacity: 1,
        commands: [.item(item(PixelRect(x: 20, y: 20, width: 20, height: 20), name: "mask"))],
        reason: "mask")
      let masked = GroupPass(
        id: 20 + i, bounds: area, opacity: 1, commands: [.item(content)], reason: "masked layer")
      masked.mask = mask
      let container = GroupPass(
        id: 30 + i, bounds: area, opacity: 1, commands: [.group(masked)], reason: "container")
      XCTAssertEqual(FramePlanner.isolation(of: container), .none(opacity: 1))
      containers.append(.group(container))
    }
    let p = plan(DrawList(width: 60, height: 60, background: .zero, commands: containers))
    var made: [Int: Int] = [:]
    for target in p.targets {
      if case .cached(let key, false) = target.role { made[key, default: 0] += 1 }
    }
    // One mask, two contents: three entries, each made once.
    XCTAssertEqual(made.count, 3, "\(p)")
    XCTAssertEqual(made.values.max(), 1, "\(p)")
  }

  /// A masked layer renders its mask and its content offscreen, both kept
  /// in the cache; the next frame with the same draw lists renders neither.
  func testMaskedLayerRendersOnceThenComesFromTheCache() {
    let r = root(100, 60)
    let label = layer(
      CGRect(x: 10, y: 20, width: 80, height: 20), CGColor(gray: 0.5, alpha: 1), name: "label")
    let gradient = CAGradientLayer()
    gradient.colors = [CGColor.black, CGColor.white]
    gradient.frame = label.bounds
    label.addSublayer(gradient)
    label.mask = layer(label.bounds, .black, name: "mask")
    r.addSublayer(label)
    let f = frame(r)
    let first = plan(f)
    XCTAssertEqual(
      lines(first),
      [
        "plan 100x60: 3 passes, 4 batches, 3 targets (peak 2 offscreen, 15 KiB)",
        "pass 0: draw T1 83x23 cached (new), region [8, 18, 83x23], clear 0 0 0 0"
          + " — group 1 [8, 18, 83x23]: mask mask",
        "  batch 0: solid, 1 item, 6 indices (mask)",
        "pass 1: draw T2 83x23 cached (new), region [8, 18, 83x23], clear 0 0 0 0"
          + " — group 2 [8, 18, 83x23]: masked layer",
        "  batch 0: solid, 1 item, 6 indices (label)",
        "  batch 1: gradient axial, 1 item, 6 indices",
        "pass 2: draw T0 100x60 canvas, region [0, 0, 100x60], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x60]",
        "  batch 0: effect textured masked T2 nearest mask T1, 1 item, 6 indices",
        "pass 3: output T0 [0, 0, 100x60] as tile [0, 0, 100x60]",
      ])
    var caches = FakeCaches()
    for target in first.targets {
      if case .cached(let key, _) = target.role { caches.cachedPasses.insert(key) }
    }
    XCTAssertEqual(caches.cachedPasses.count, 2)
    XCTAssertEqual(
      lines(plan(f, caches: caches)),
      [
        "plan 100x60: 1 pass, 1 batch, 3 targets (peak 0 offscreen, 0 KiB)",
        "pass 0: draw T0 100x60 canvas, region [0, 0, 100x60], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x60]",
        "  batch 0: effect textured masked T2 nearest mask T1, 1 item, 6 indices",
        "pass 1: output T0 [0, 0, 100x60] as tile [0, 0, 100x60]",
      ])
  }

  /// Background filters split the canvas pass: what is drawn so far is
  /// copied, blurred (downsampled and back), and drawn back through the
  /// layer's clip before the layer; each intermediate target is freed by
  /// the pass after the one that made it.
  func testBackdropFilterSplitsTheCanvasPass() throws {
    let r = root(100, 100)
    r.addSublayer(layer(CGRect(x: 0, y: 0, width: 50, height: 100), .black, name: "left"))
    let glass = layer(
      CGRect(x: 20, y: 20, width: 60, height: 60), CGColor(gray: 1, alpha: 0.3), name: "glass")
    let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur"))
    blur.setValue(4, forKey: "inputRadius")
    glass.backgroundFilters = [blur]
    r.addSublayer(glass)
    XCTAssertEqual(
      lines(plan(frame(r))),
      [
        "plan 100x100: 7 passes, 3 batches, 6 targets (peak 2 offscreen, 37 KiB)",
        "pass 0: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x100]",
        "  batch 0: solid, 1 item, 6 indices (left)",
        "pass 1: copy T0 [7, 7, 86x86] to T1 86x86 pooled — backdrop 1: background filters of glass",
        "pass 2: downsample ×2 T1 linear to T2 43x43 pooled; frees T1",
        "pass 3: blur x σ=1.94 T2 linear to T3 43x43 pooled; frees T2",
        "pass 4: blur y σ=1.94 T3 linear to T4 43x43 pooled; frees T3",
        "pass 5: upsample ×2 T4 linear to T5 86x86 pooled; frees T4",
        "pass 6: draw T0 100x100 canvas, region [0, 0, 100x100], load"
          + " — canvas tile [0, 0, 100x100]; frees T5",
        "  batch 0: effect textured clip T5 nearest, 1 item, 6 indices",
        "  batch 1: solid, 1 item, 6 indices (glass)",
        "pass 7: output T0 [0, 0, 100x100] as tile [0, 0, 100x100]",
      ])
  }

  /// Without the blend equations a blended layer is drawn offscreen, what
  /// is behind it copied, and `blend.frag` writes the result over its area;
  /// with them it is one batch of the canvas pass.
  func testBlendModeWithAndWithoutTheEquations() {
    let r = root(100, 100)
    r.addSublayer(layer(CGRect(x: 0, y: 0, width: 100, height: 50), .black, name: "top"))
    let m = layer(
      CGRect(x: 20, y: 20, width: 60, height: 60), CGColor(red: 1, green: 0, blue: 0, alpha: 1),
      name: "multiply")
    m.compositingFilter = "CIMultiplyBlendMode"
    r.addSublayer(m)
    var fallback = PlanOptions()
    fallback.blendEquations = false
    XCTAssertEqual(
      lines(plan(frame(r), options: fallback)),
      [
        "plan 100x100: 4 passes, 2 batches, 3 targets (peak 2 offscreen, 32 KiB)",
        "pass 0: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x100]",
        "  batch 0: solid, 1 item, 6 indices (top)",
        "pass 1: draw T1 64x64 pooled, region [18, 18, 64x64], clear 0 0 0 0"
          + " — group -1 [18, 18, 63x63]: CIMultiplyBlendMode without blend equations",
        "  batch 0: solid, 1 item, 6 indices (multiply)",
        "pass 2: copy T0 [18, 18, 63x63] to T2 63x63 pooled — behind CIMultiplyBlendMode",
        "pass 3: blend CIMultiplyBlendMode T1 + T2 nearest to T0 100x100 canvas,"
          + " viewport [18, 18, 63x63]; frees T1 T2",
        "pass 4: output T0 [0, 0, 100x100] as tile [0, 0, 100x100]",
      ])
    XCTAssertEqual(
      lines(plan(frame(r))),
      [
        "plan 100x100: 1 pass, 2 batches, 1 target (peak 0 offscreen, 0 KiB)",
        "pass 0: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x100]",
        "  batch 0: solid, 1 item, 6 indices (top)",
        "  batch 1: solid+blend CIMultiplyBlendMode, 1 item, 6 indices (multiply)",
        "pass 1: output T0 [0, 0, 100x100] as tile [0, 0, 100x100]",
      ])
  }

  /// A blurred shadow: rendered, downsampled, blurred both ways into a cache
  /// entry; a color filter that scales alpha (so not applied to the solid's
  /// color alone): rendered and one matrix pass.
  func testShadowAndFilterPasses() throws {
    let r = root(100, 100)
    let s = layer(CGRect(x: 20, y: 20, width: 40, height: 40), nil, name: "shadowed")
    s.addSublayer(layer(CGRect(x: 0, y: 0, width: 20, height: 20), .black, name: "dot"))
    s.addSublayer(layer(CGRect(x: 20, y: 20, width: 20, height: 20), .black, name: "dot2"))
    s.shadowOpacity = 0.5
    s.shadowRadius = 8
    r.addSublayer(s)
    let f = layer(CGRect(x: 60, y: 60, width: 30, height: 30), .black, name: "inverted")
    let invert = try XCTUnwrap(CIFilter(name: "CIColorMatrix"))
    invert.setValue(CIVector(x: -1, y: 0, z: 0, w: 0), forKey: "inputRVector")
    invert.setValue(CIVector(x: 0, y: -1, z: 0, w: 0), forKey: "inputGVector")
    invert.setValue(CIVector(x: 0, y: 0, z: -1, w: 0), forKey: "inputBVector")
    invert.setValue(CIVector(x: 0, y: 0, z: 0, w: 0.5), forKey: "inputAVector")
    invert.setValue(CIVector(x: 1, y: 1, z: 1, w: 0), forKey: "inputBiasVector")
    f.filters = [invert]
    r.addSublayer(f)
    XCTAssertEqual(
      lines(plan(frame(r))),
      [
        "plan 100x100: 7 passes, 5 batches, 7 targets (peak 2 offscreen, 36 KiB)",
        "pass 0: draw T1 92x92 pooled, region [-6, -6, 92x92], clear 0 0 0 0"
          + " — shadow 1: shadow of shadowed (blurred offscreen)",
        "  batch 0: solid, 2 items, 12 indices (dot)",
        "pass 1: downsample ×4 T1 linear to T2 23x23 pooled; frees T1",
        "pass 2: blur x σ=1.94 T2 linear to T3 23x23 pooled; frees T2",
        "pass 3: blur y σ=1.94 T3 linear to T4 23x23 cached (new); frees T3",
        "pass 4: draw T5 33x33 pooled, region [58, 58, 33x33], clear 0 0 0 0"
          + " — filters 2: filters of inverted",
        "  batch 0: solid, 1 item, 6 indices (inverted)",
        "pass 5: color matrix T5 nearest to T6 33x33 pooled; frees T5",
        "pass 6: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1"
          + " — canvas tile [0, 0, 100x100]; frees T6",
        "  batch 0: shadow T4 linear, 1 item, 6 indices",
        "  batch 1: solid, 2 items, 12 indices (dot)",
        "  batch 2: image T6 nearest, 1 item, 6 indices",
        "pass 7: output T0 [0, 0, 100x100] as tile [0, 0, 100x100]",
      ])
  }

  /// Damaged rects of one frame share the canvas region, so a group both
  /// touch renders once; each rect is cleared and drawn scissored.
  func testDamagedRectsShareTheirGroups() {
    let rects = [
      PixelRect(x: 0, y: 0, width: 20, height: 20), PixelRect(x: 80, y: 80, width: 20, height: 20),
    ]
    let g = GroupPass(
      id: 1, bounds: PixelRect(x: 0, y: 0, width: 100, height: 100), opacity: 0.5,
      commands: [
        .item(item(PixelRect(x: 0, y: 0, width: 60, height: 60), name: "a")),
        .item(item(PixelRect(x: 40, y: 40, width: 60, height: 60), name: "b")),
      ], reason: "test")
    let f = DrawList(width: 100, height: 100, background: SIMD4(1, 1, 1, 1), commands: [.group(g)])
    XCTAssertEqual(
      lines(plan(f, damage: rects)),
      [
        "plan 100x100: 3 passes, 3 batches, 2 targets (peak 1 offscreen, 40 KiB)",
        "pass 0: draw T1 100x100 pooled, region [0, 0, 100x100], clear 0 0 0 0 — group 1 [0, 0, 100x100]: test",
        "  batch 0: solid, 2 items, 12 indices (a)",
        "pass 1: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1,"
          + " scissor [0, 0, 20x20] — damaged [0, 0, 20x20]",
        "  batch 0: image T1 nearest, 1 item, 6 indices",
        "pass 2: output T0 [0, 0, 20x20] as tile [0, 0, 20x20]",
        "pass 3: draw T0 100x100 canvas, region [0, 0, 100x100], clear 1 1 1 1,"
          + " scissor [80, 80, 20x20] — damaged [80, 80, 20x20]; frees T1",
        "  batch 0: image T1 nearest, 1 item, 6 indices",
        "pass 4: output T0 [80, 80, 20x20] as tile [80, 80, 20x20]",
      ])
  }

  /// A canvas larger than a tile is planned tile by tile; a group across
  /// two tiles renders its part in each, its target freed within the tile.
  func testTilesRenderTheirPartOfAGroup() {
    let g = GroupPass(
      id: 1, bounds: PixelRect(x: 40, y: 0, width: 40, height: 50), opacity: 0.5,
      commands: [
        .item(item(PixelRect(x: 40, y: 0, width: 30, height: 50), name: "a")),
        .item(item(PixelRect(x: 50, y: 0, width: 30, height: 50), name: "b")),
      ], reason: "test")
    let f = DrawList(width: 120, height: 50, background: .zero, commands: [.group(g)])
    let text = lines(plan(f, tile: 64))
    XCTAssertEqual(text.count, 11, text.joined(separator: "\n"))
    XCTAssertEqual(
      text.filter { $0.hasPrefix("pass") },
      [
        // (The target's size class is bounded by the frame, not the tile:
        // 32 wide, past the tile's edge, drawn and sampled within it.)
        "pass 0: draw T1 32x50 pooled, region [40, 0, 32x50], clear 0 0 0 0 — group 1 [40, 0, 24x50]: test",
        "pass 1: draw T0 64x50 canvas, region [0, 0, 64x50], clear 0 0 0 0"
          + " — canvas tile [0, 0, 64x50]; frees T1",
        "pass 2: output T0 [0, 0, 64x50] as tile [0, 0, 64x50]",
        "pass 3: draw T2 32x50 pooled, region [64, 0, 32x50], clear 0 0 0 0 — group 1 [64, 0, 16x50]: test",
        "pass 4: draw T0 64x50 canvas, region [64, 0, 56x50], clear 0 0 0 0"
          + " — canvas tile [64, 0, 56x50]; frees T2",
        "pass 5: output T0 [0, 0, 56x50] as tile [64, 0, 56x50]",
      ])
  }

  /// Batching off: every item is its own draw call, with the same vertices.
  func testBatchingOffGivesEachItemItsOwnBatch() {
    let r = root(100, 100)
    for i in 0..<5 {
      r.addSublayer(layer(CGRect(x: i * 20, y: 0, width: 15, height: 15), .black, name: "\(i)"))
    }
    let f = frame(r)
    var off = PlanOptions()
    off.batching = false
    let batched = plan(f)
    let unbatched = plan(f, options: off)
    XCTAssertEqual(batched.batchCount, 1)
    XCTAssertEqual(unbatched.batchCount, 5)
    guard case .draw(let a) = batched.steps[0], case .draw(let b) = unbatched.steps[0] else {
      return XCTFail("no canvas pass")
    }
    XCTAssertEqual(a.geometry.indices, b.geometry.indices)
    XCTAssertEqual(b.batches.map(\.firstIndex), [0, 6, 12, 18, 24])
  }

  /// The same frame gives the same text: images are named by order of use.
  func testPlanTextIsTheSameForTheSameFrame() throws {
    let r = root(40, 20)
    let image = try XCTUnwrap(
      CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16)))
    for x in [0, 20] as [CGFloat] {
      let l = layer(CGRect(x: x, y: 0, width: 20, height: 20), nil)
      l.contents = image
      r.addSublayer(l)
    }
    let a = plan(frame(r)).description
    XCTAssertEqual(a, plan(frame(r)).description)
    XCTAssertTrue(a.contains("  batch 0: image image1 2x2 linear, 2 items, 12 indices"), a)
  }
}
