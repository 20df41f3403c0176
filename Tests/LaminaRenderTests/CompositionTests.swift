import CGLES3
import Foundation
import Lamina
import LaminaScene
import LaminaTestSupport
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Features in combination, the way the repros of issue 13 found them
/// broken: each pass must see only the state the device believes in.
final class CompositionTests: XCTestCase {
  func scene(_ name: String) throws -> DrawList {
    let url = RenderTestSupport.fixtures.appendingPathComponent("reftests/\(name)")
    let scene = try SceneLoader.load(contentsOf: url)
    var builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: scene.canvas.scale)
    return builder.build(root: scene.root, background: scene.canvas.background)
  }

  /// `../shared/repros/mask-gradient-first-render.swift`: a fresh renderer's
  /// first render of a masked layer holding a gradient compiled the gradient
  /// program mid-frame, whose `glUseProgram(0)` left no program in use
  /// behind the device's cache (GL error 0x0502, the label's background
  /// missing). Both renders succeed now, with the same bytes.
  func testMaskedGradientFirstRenderOfAFreshRenderer() throws {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
    let label = CALayer()
    label.frame = CGRect(x: 10, y: 20, width: 80, height: 20)
    label.backgroundColor = CGColor(gray: 0.5, alpha: 1)
    let gradient = CAGradientLayer()
    gradient.colors = [CGColor.black, CGColor.white]
    gradient.frame = label.bounds
    label.addSublayer(gradient)
    let mask = CALayer()
    mask.frame = label.bounds
    mask.backgroundColor = .black
    label.mask = mask
    root.addSublayer(label)
    let renderer = try Renderer()
    XCTAssertTrue(renderer.device.checksState, "the check mode is on in the test suite")
    let first = try renderer.render(
      layer: root, size: root.bounds.size, scale: 2, background: .white)
    let second = try renderer.render(
      layer: root, size: root.bounds.size, scale: 2, background: .white)
    XCTAssertTrue(first == second, "the first render differs from the second")
    // The gradient runs black to white down the label; outside it, white.
    let top = first.pixel(100, 41)
    let middle = first.pixel(100, 60)
    XCTAssertLessThan(Int(top.r), 20)
    XCTAssertEqual(Int(middle.r), 128, accuracy: 8)
    XCTAssertEqual(first.pixel(100, 10).r, 255)
  }

  /// `../shared/repros/two-opacity-groups.json`: the second group's target
  /// was created with a direct `glBindTexture`, so the device believed the
  /// photo still bound and group 2 sampled its own target. The two groups
  /// are the same content 100 pixels apart: their pixels are identical.
  func testTwoOpacityGroupsOfOneImageAreAlike() throws {
    let image = try RenderTestSupport.renderer().render(scene("two_opacity_groups.json"))
    var differing = 0
    for y in 0..<100 {
      for x in 0..<100 where image.pixel(x, y) != image.pixel(x + 100, y) { differing += 1 }
    }
    XCTAssertEqual(differing, 0)
    // Half of the photo over white: not white, not the photo.
    XCTAssertLessThan(image.pixel(150, 50).b, 250)
  }

  /// `../shared/repros/two-color-filters.json`: both squares are filtered,
  /// their solid colors item by item (no pass); the same squares as
  /// gradients (two passes each), the second from the pool's reused
  /// targets.
  func testTwoColorFiltersBothDraw() throws {
    let renderer = try RenderTestSupport.renderer()
    for (name, passes) in [("two_color_filters.json", 0), ("two_color_filters_gradients.json", 4)] {
      let image = try renderer.render(scene(name))
      XCTAssertEqual(renderer.counters.offscreenPasses, passes, name)
      // Saturation 0: Rec. 709 luma of each color.
      XCTAssertEqual(Int(image.pixel(48, 48).r), 64, accuracy: 2, name)
      XCTAssertEqual(Int(image.pixel(148, 48).r), 87, accuracy: 2, name)
      XCTAssertEqual(image.pixel(148, 48).r, image.pixel(148, 48).b, name)
    }
  }

  /// The check mode finds GL state changed behind the device, naming it.
  func testCheckModeNamesStateChangedBehindTheDevice() throws {
    let renderer = try RenderTestSupport.renderer()
    let before = try renderer.render(scene("two_opacity_groups.json"))
    let device = renderer.device
    XCTAssertNoThrow(try device.verify("after a frame"))
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    defer { glDeleteTextures(1, &texture) }
    glActiveTexture(GLenum(GL_TEXTURE0))
    glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    glEnable(GLenum(GL_SCISSOR_TEST))
    XCTAssertThrowsError(try device.verify("the test")) { error in
      guard case RendererError.deviceStateMismatch(let label, let differences) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(label, "the test")
      XCTAssertTrue(differences.contains { $0.hasPrefix("texture on unit 0") }, "\(differences)")
      XCTAssertTrue(differences.contains { $0.hasPrefix("scissor test") }, "\(differences)")
    }
    // The next frame takes the context back: it renders as before.
    XCTAssertTrue(try renderer.render(scene("two_opacity_groups.json")) == before)
  }

  /// A `CAOpenGLLayer` that leaves its own state behind (program, texture
  /// units, depth test, scissor, color mask, blending, pixel storage)
  /// changes nothing else in the frame.
  func testOpenGLLayerStateDoesNotLeak() throws {
    final class Messy: CAOpenGLLayer {
      var texture: GLuint = 0
      override func draw(atLayerTime t: CFTimeInterval) {
        glClearColor(0.2, 0.6, 0.2, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        if texture == 0 { glGenTextures(1, &texture) }
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glEnable(GLenum(GL_DEPTH_TEST))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(0, 0, 1, 1)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ZERO), GLenum(GL_ONE))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 7)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glViewport(0, 0, 3, 3)
      }
    }
    func tree(glLayer: Bool) -> CALayer {
      let r = root(120, 80)
      let content: CALayer = glLayer ? Messy() : CALayer()
      content.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
      if !glLayer { content.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.2, alpha: 1) }
      r.addSublayer(content)
      let group = CALayer()
      group.frame = CGRect(x: 60, y: 10, width: 50, height: 60)
      group.opacity = 0.5
      for y in [0, 20] as [CGFloat] {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: y, width: 50, height: 40)
        l.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        group.addSublayer(l)
      }
      r.addSublayer(group)
      return r
    }
    let renderer = try RenderTestSupport.renderer()
    let messy = try renderer.render(
      layer: tree(glLayer: true), size: CGSize(width: 120, height: 80))
    let clean = try renderer.render(
      layer: tree(glLayer: false), size: CGSize(width: 120, height: 80))
    let comparison = ImageComparison(
      actual: messy.straightPixels, expected: clean.straightPixels, threshold: 2)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
  }

  /// Layers in every combination of offscreen work: groups, masks, filters,
  /// a backdrop, a shadow, a blend mode, a rasterized subtree.
  func busyScene() throws -> CALayer {
    let r = root(160, 120)
    r.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    func solid(_ frame: CGRect, _ red: CGFloat, _ green: CGFloat, _ blue: CGFloat) -> CALayer {
      let l = CALayer()
      l.frame = frame
      l.backgroundColor = CGColor(red: red, green: green, blue: blue, alpha: 1)
      return l
    }
    for i in 0..<3 {
      let group = CALayer()
      group.frame = CGRect(x: 5 + 50 * i, y: 5, width: 45, height: 45)
      group.opacity = 0.6
      group.addSublayer(solid(CGRect(x: 0, y: 0, width: 30, height: 30), 0.9, 0.2, 0.1))
      group.addSublayer(solid(CGRect(x: 15, y: 15, width: 30, height: 30), 0.1, 0.3, 0.9))
      if i == 1 {
        let mask = CAGradientLayer()
        mask.colors = [CGColor.black, CGColor(gray: 0, alpha: 0)]
        mask.frame = group.bounds
        group.mask = mask
      }
      if i == 2 { group.filters = [CIFilter(name: "CIColorInvert")].compactMap { $0 } }
      r.addSublayer(group)
    }
    let shadowed = solid(CGRect(x: 10, y: 60, width: 40, height: 40), 0.2, 0.7, 0.3)
    shadowed.cornerRadius = 8
    shadowed.addSublayer(solid(CGRect(x: 20, y: 20, width: 30, height: 30), 0.9, 0.9, 0.1))
    shadowed.shadowOpacity = 0.8
    shadowed.shadowRadius = 4
    r.addSublayer(shadowed)
    let glass = solid(CGRect(x: 60, y: 55, width: 50, height: 50), 1, 1, 1)
    glass.backgroundColor = CGColor(gray: 1, alpha: 0.2)
    let blur = CIFilter(name: "CIGaussianBlur")
    blur?.setValue(3, forKey: "inputRadius")
    glass.backgroundFilters = [blur].compactMap { $0 }
    r.addSublayer(glass)
    let blended = solid(CGRect(x: 100, y: 70, width: 50, height: 40), 0.9, 0.5, 0.1)
    blended.compositingFilter = "CIMultiplyBlendMode"
    r.addSublayer(blended)
    let raster = solid(CGRect(x: 120, y: 60, width: 30, height: 30), 0.3, 0.1, 0.6)
    raster.addSublayer(solid(CGRect(x: 5, y: 5, width: 10, height: 10), 1, 1, 1))
    raster.shouldRasterize = true
    r.addSublayer(raster)
    return r
  }

  /// The knobs the generated tests turn must not change the pixels: the
  /// pool down to one idle target or none, batching off, the blend
  /// equations against the shader fallback.
  func testPoolBatchingAndBlendKnobsKeepThePixels() throws {
    let tree = try busyScene()
    let size = tree.bounds.size
    let reference = try Renderer().render(layer: tree, size: size, background: .white)
    for limit in [1, 0] {
      let renderer = try Renderer()
      renderer.offscreenPoolLimit = limit
      for frame in 0..<2 {
        let image = try renderer.render(layer: tree, size: size, background: .white)
        let comparison = ImageComparison(
          actual: image.straightPixels, expected: reference.straightPixels, threshold: 0)
        XCTAssertEqual(
          comparison.pixelsOff, 0, "pool of \(limit), frame \(frame): \(comparison.summary)")
      }
      XCTAssertLessThanOrEqual(renderer.pool.count, limit)
    }
    let unbatched = try Renderer()
    unbatched.batchesDraws = false
    let image = try unbatched.render(layer: tree, size: size, background: .white)
    XCTAssertEqual(
      ImageComparison(
        actual: image.straightPixels, expected: reference.straightPixels, threshold: 0
      ).pixelsOff, 0)
    let fallback = try Renderer()
    fallback.usesBlendEquations = false
    let blended = try fallback.render(layer: tree, size: size, background: .white)
    let comparison = ImageComparison(
      actual: blended.straightPixels, expected: reference.straightPixels, threshold: 2)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
  }

  /// Offscreen targets are reused: within a frame once their last reader
  /// ran, and in the next frame from the pool, which then makes none.
  func testTargetsAreReusedWithinAndAcrossFrames() throws {
    let renderer = try Renderer()
    let frame = try scene("two_color_filters_gradients.json")
    let plan = renderer.plan(frame)
    let pooled = plan.targets.filter { $0.role == .pooled }.count
    _ = try renderer.render(frame)
    let made = renderer.pool.made
    XCTAssertEqual(pooled, 4, "\(plan)")
    // The first filter's source is free once its color pass ran: the second
    // filter's source takes it; both results live until the canvas pass.
    XCTAssertEqual(made, 3)
    _ = try renderer.render(frame)
    XCTAssertEqual(renderer.pool.made, made, "the next frame takes them from the pool")
    XCTAssertLessThanOrEqual(renderer.pool.count, renderer.offscreenPoolLimit)
  }

  /// Batching off draws each item with its own call.
  func testBatchingOffCountsOneDrawPerItem() throws {
    let r = root(100, 20)
    for i in 0..<10 {
      let l = CALayer()
      l.frame = CGRect(x: i * 10, y: 0, width: 8, height: 8)
      l.backgroundColor = .black
      r.addSublayer(l)
    }
    let renderer = try Renderer()
    _ = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    renderer.batchesDraws = false
    _ = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.drawCalls, 10)
  }

  /// Two renderers on one context, frames interleaved, draw what each draws
  /// alone: neither sees the other's state.
  func testRenderersSharingAContextDoNotLeakIntoEachOther() throws {
    let busy = try busyScene()
    let groups = try scene("two_opacity_groups.json")
    let a = try Renderer()
    let b = try Renderer(maxTileSize: 64)
    let aloneA = try a.render(layer: busy, size: busy.bounds.size)
    let aloneB = try b.render(groups)
    for _ in 0..<2 {
      XCTAssertTrue(try b.render(groups) == aloneB)
      XCTAssertTrue(try a.render(layer: busy, size: busy.bounds.size) == aloneA)
    }
  }

  /// A frame that needs more offscreen memory at once than allowed is
  /// refused before anything is drawn, with the numbers.
  func testOffscreenBudgetIsCheckedBeforeDrawing() throws {
    let renderer = try Renderer()
    renderer.maxOffscreenBytes = 40_000
    XCTAssertThrowsError(try renderer.render(scene("two_opacity_groups.json"))) { error in
      XCTAssertEqual(
        "\(error)",
        "the frame needs 67.6 KiB of offscreen targets at once (2 targets), more than"
          + " Renderer.maxOffscreenBytes allows (39.1 KiB)")
      XCTAssertEqual(
        error as? RendererError,
        .offscreenBudgetExceeded(bytes: 69_184, limit: 40_000, targets: 2))
    }
    XCTAssertEqual(renderer.counters.drawCalls, 0)
  }
}

/// Plans made by hand, run by the executor: what the planner does not make
/// yet but the plan has room for.
final class PlanExecutionTests: XCTestCase {
  /// Two passes share one target, each in its own viewport (an atlas); the
  /// canvas shows the whole target.
  func testPassesShareATargetThroughTheirViewports() throws {
    let renderer = try Renderer()
    var planner = FramePlanner(
      width: 40, height: 20, canvasWidth: 40, canvasHeight: 20, options: PlanOptions(),
      caches: renderer.executor)
    let atlas = planner.addTarget(width: 40, height: 20, role: .pooled, label: "atlas")
    func solid(_ x: Int, _ width: Int, _ color: SIMD4<Float>, material: Material = .solid)
      -> DrawItem
    {
      DrawItem(
        material: material, clippedPolygon: nil,
        rect: CGRect(x: x, y: 0, width: width, height: 20), uv: (0, 0, 1, 1),
        matrix: CATransform3DIdentity, color: color,
        bounds: PixelRect(x: x, y: 0, width: width, height: 20), layerName: nil,
        antialiased: false)
    }
    // Both halves draw the same region (a 20x20 square) into their part.
    for (x, color) in [(0, SIMD4<Float>(1, 0, 0, 1)), (20, SIMD4<Float>(0, 0, 1, 1))] {
      planner.drawList(
        [.item(solid(0, 20, color))], into: atlas,
        region: PixelRect(x: 0, y: 0, width: 20, height: 20), clear: .zero, label: "part \(x)")
      guard case .draw(var pass) = planner.plan.steps.removeLast() else { return XCTFail() }
      pass.viewport = PixelRect(x: x, y: 0, width: 20, height: 20)
      planner.plan.steps.append(.draw(pass))
    }
    planner.groupTargets[99] = atlas
    planner.drawList(
      [.item(solid(0, 40, SIMD4(repeating: 1), material: .group(99)))], into: FramePlan.canvas,
      region: PixelRect(x: 0, y: 0, width: 40, height: 20), clear: SIMD4(1, 1, 1, 1),
      label: "canvas")
    planner.plan.steps.append(
      .output(
        OutputStep(
          tile: PixelRect(x: 0, y: 0, width: 40, height: 20),
          rect: PixelRect(x: 0, y: 0, width: 40, height: 20))))
    var plan = planner.plan
    plan.computeLifetimes(samples: renderer.samples)
    XCTAssertTrue(plan.description.contains("viewport [20, 0, 20x20]"), plan.description)
    var pixels = [UInt8](repeating: 0, count: 40 * 20 * 4)
    try renderer.begin()
    try renderer.run(plan) { target, step in
      pixels.withUnsafeMutableBytes { raw in
        if let base = raw.baseAddress { target.read(step.rect, into: base) }
      }
    }
    let image = RenderedImage(width: 40, height: 20, premultipliedPixels: pixels)
    XCTAssertTrue(image.pixel(5, 10) == (255, 0, 0, 255), "\(image.pixel(5, 10))")
    XCTAssertTrue(image.pixel(35, 10) == (0, 0, 255, 255), "\(image.pixel(35, 10))")
  }

  /// A pass that samples a target no pass drew is refused, not shown with
  /// whatever a reused target held.
  func testReadingATargetNoPassDrewThrows() throws {
    let renderer = try Renderer()
    var planner = FramePlanner(
      width: 20, height: 20, canvasWidth: 20, canvasHeight: 20, options: PlanOptions(),
      caches: renderer.executor)
    planner.groupTargets[7] = planner.addTarget(
      width: 20, height: 20, role: .pooled, label: "never drawn")
    planner.drawList(
      [
        .item(
          DrawItem(
            material: .group(7), clippedPolygon: nil,
            rect: CGRect(x: 0, y: 0, width: 20, height: 20),
            uv: (0, 0, 1, 1), matrix: CATransform3DIdentity, color: SIMD4(repeating: 1),
            bounds: PixelRect(x: 0, y: 0, width: 20, height: 20), layerName: nil))
      ], into: FramePlan.canvas, region: PixelRect(x: 0, y: 0, width: 20, height: 20),
      clear: .zero, label: "canvas")
    var plan = planner.plan
    plan.computeLifetimes(samples: renderer.samples)
    try renderer.begin()
    XCTAssertThrowsError(try renderer.run(plan) { _, _ in }) { error in
      XCTAssertEqual(
        "\(error)", "frame plan defect: a pass reads T1 (never drawn) before any drew it")
    }
  }
}
