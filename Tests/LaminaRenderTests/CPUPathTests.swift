import Foundation
@_spi(Caches) import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Paths drawn on the CPU (`PlanOptions.cpuPaths`, the default on
/// llvmpipe): consecutive path items of a pass go to Cairo as one bitmap,
/// written into the target when nothing came before them in the pass, or
/// drawn as one quad; each test compares with the GPU path renderer.
final class CPUPathTests: XCTestCase {
  /// A renderer of the test's own (`cpuPaths` set as asked) and the plans
  /// of the frames it draws.
  private func render(
    _ json: String, cpuPaths: Bool, renderer given: Renderer? = nil
  ) throws -> (RenderedImage, FramePlan) {
    let renderer = try given ?? Renderer()
    renderer.cpuPaths = cpuPaths
    var plans: [FramePlan] = []
    renderer.planObserver = { plans.append($0) }
    // Built with the renderer's caches, as the renderer's own frames are:
    // a path keeps its mesh, and a run its key, from frame to frame.
    let scene = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "scene.json")
    var builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: scene.canvas.scale, caches: renderer.caches)
    let root = PresentationTree(root: scene.root).update(time: 0)
    let image = try renderer.render(builder.build(root: root, background: scene.canvas.background))
    return (image, try XCTUnwrap(plans.last))
  }

  private func pixel(_ image: RenderedImage, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * image.width + x) * 4
    return image.premultipliedPixels[i..<i + 4].map(Int.init)
  }

  private func scene(_ sublayers: String, width: Int = 40, height: Int = 20) -> String {
    """
    { "lamina": 1, "canvas": { "width": \(width), "height": \(height), "scale": 1, "background": "#ffffff" },
      "root": { "sublayers": [ \(sublayers) ] } }
    """
  }

  private func canvasPass(_ plan: FramePlan) throws -> DrawPass {
    try XCTUnwrap(
      plan.steps.compactMap { step -> DrawPass? in
        if case .draw(let pass) = step, pass.target == FramePlan.canvas { return pass }
        return nil
      }.first)
  }

  /// Two squares on whole pixels, the second half transparent over the
  /// first: one run, written into the canvas right after its clear (no
  /// draw call), and the colors worked out by hand, which the GPU path
  /// writes too.
  func testARunIsOneUploadAndWritesTheGPUColors() throws {
    let json = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#1a80f2",
        "path": "M 5 5 L 15 5 L 15 15 L 5 15 Z" },
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#ff000080",
        "path": "M 10 5 L 20 5 L 20 15 L 10 15 Z" }
      """)
    let renderer = try Renderer()
    let (cpu, plan) = try render(json, cpuPaths: true, renderer: renderer)
    XCTAssertEqual(plan.cpuPathRuns, 1)
    XCTAssertEqual(plan.cpuPathItems, 2)
    // What `lamina bench` reports per frame.
    XCTAssertEqual(renderer.counters.cpuPathRuns, 1)
    XCTAssertEqual(renderer.counters.cpuPathItems, 2)
    XCTAssertEqual(renderer.counters.textureUploads, 1, "the run, written into the canvas")
    XCTAssertEqual(renderer.counters.drawCalls, 0)
    let pass = try canvasPass(plan)
    XCTAssertNotNil(pass.upload)
    XCTAssertEqual(pass.batches.count, 0, "nothing left to draw")
    // 0.1, 0.5, 0.95 in bytes: 26, 128, 242 (Cairo alone writes 25 and 243).
    XCTAssertEqual(pixel(cpu, 7, 10), [0x1a, 0x80, 0xf2, 255])
    // 128/255 red over the blue: 128 + 26·127/255, 128·127/255, 242·127/255.
    for (got, want) in zip(pixel(cpu, 12, 10), [141, 64, 121, 255]) {
      XCTAssertEqual(got, want, accuracy: 1)
    }
    // Over white: 128 + 255·127/255, 127, 127.
    for (got, want) in zip(pixel(cpu, 17, 10), [255, 127, 127, 255]) {
      XCTAssertEqual(got, want, accuracy: 1)
    }
    XCTAssertEqual(pixel(cpu, 30, 10), [255, 255, 255, 255])
    let (gpu, gpuPlan) = try render(json, cpuPaths: false)
    XCTAssertEqual(gpuPlan.cpuPathRuns, 0)
    XCTAssertGreaterThan(try canvasPass(gpuPlan).batches.count, 0)
    for (a, b) in zip(cpu.premultipliedPixels, gpu.premultipliedPixels) {
      XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), 1)
    }
  }

  /// A layer that is not a path ends the run: the paths before it are
  /// written into the canvas, the solid is drawn, and the paths after it
  /// are one image drawn over it.
  func testAnotherItemEndsTheRun() throws {
    let json = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
        "path": "M 2 2 L 18 2 L 18 18 L 2 18 Z" },
      { "frame": [10, 4, 20, 12], "backgroundColor": "#20c040" },
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#c02040",
        "path": "M 24 2 L 38 2 L 38 18 L 24 18 Z" }
      """)
    let (cpu, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 2)
    let pass = try canvasPass(plan)
    XCTAssertNotNil(pass.upload)
    XCTAssertEqual(pass.batches.map(\.program), [.solid, .image])
    XCTAssertEqual(pixel(cpu, 4, 10), [0x20, 0x40, 0xc0, 255])
    XCTAssertEqual(pixel(cpu, 14, 10), [0x20, 0xc0, 0x40, 255], "the solid over the first path")
    XCTAssertEqual(pixel(cpu, 27, 10), [0xc0, 0x20, 0x40, 255], "the second path over the solid")
    let (gpu, _) = try render(json, cpuPaths: false)
    XCTAssertEqual(cpu.premultipliedPixels, gpu.premultipliedPixels)
  }

  /// A pass that goes on after a break (a backdrop filter reads what was
  /// drawn) does not write its run into the target again: the solid drawn
  /// over the paths before the break stays (the review's finding: the
  /// continuation kept the upload and erased it).
  func testAPassGoingOnAfterABreakDoesNotWriteItsRunAgain() throws {
    let json = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
        "path": "M 0 0 L 40 0 L 40 20 L 0 20 Z" },
      { "frame": [4, 4, 12, 12], "backgroundColor": "#20c040" },
      { "frame": [24, 4, 12, 12], "backgroundFilters": [ { "name": "CIColorInvert" } ] }
      """)
    let (cpu, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 1)
    let canvasPasses = plan.steps.compactMap { step -> DrawPass? in
      if case .draw(let pass) = step, pass.target == FramePlan.canvas { return pass }
      return nil
    }
    XCTAssertGreaterThan(canvasPasses.count, 1, "the backdrop splits the canvas pass")
    XCTAssertEqual(canvasPasses.filter { $0.upload != nil }.count, 1)
    XCTAssertEqual(pixel(cpu, 10, 10), [0x20, 0xc0, 0x40, 255], "the solid over the run")
    XCTAssertEqual(pixel(cpu, 30, 10), [255 - 0x20, 255 - 0x40, 255 - 0xc0, 255], "inverted")
    XCTAssertEqual(pixel(cpu, 20, 2), [0x20, 0x40, 0xc0, 255])
    let (gpu, _) = try render(json, cpuPaths: false)
    XCTAssertEqual(cpu.premultipliedPixels, gpu.premultipliedPixels)
  }

  /// A path clipped by a rounded superlayer (`masksToBounds`) joins the
  /// run, clipped by Cairo: within the antialiasing of the edges of what
  /// the GPU draws, and nothing outside the rounded corner.
  func testClippedPathsJoinTheRun() throws {
    let json = scene(
      """
      { "frame": [4, 4, 60, 40], "masksToBounds": true, "cornerRadius": 12, "sublayers": [
        { "class": "CAShapeLayer", "frame": [0, 0, 60, 40], "fillColor": "#d08020",
          "strokeColor": "#202080", "lineWidth": 3,
          "path": "M -10 -10 L 70 -10 L 70 50 L -10 50 Z M 10 10 C 30 -5 50 45 50 20" } ] }
      """, width: 68, height: 48)
    let (cpu, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 1)
    XCTAssertEqual(plan.cpuPathItems, 2, "the fill and the stroke")
    XCTAssertEqual(pixel(cpu, 5, 5), [255, 255, 255, 255], "outside the rounded corner")
    XCTAssertEqual(pixel(cpu, 30, 40), [0xd0, 0x80, 0x20, 255])
    let (gpu, _) = try render(json, cpuPaths: false)
    let comparison = ImageComparison(actual: cpu.straightPixels, expected: gpu.straightPixels)
    XCTAssertLessThan(comparison.fractionOff, 0.03, comparison.summary)
    XCTAssertGreaterThan(comparison.psnr, 30, comparison.summary)
  }

  /// A run that did not change is not drawn again; one whose color changes
  /// every frame is, and the textures of the bitmaps of its past frames go,
  /// their pixels drawn into again (the run sits after a solid, so it is
  /// drawn as a textured quad).
  func testUnchangedRunsAreKeptAndPastBitmapsGo() throws {
    let renderer = try Renderer()
    func json(_ color: Int) -> String {
      scene(
        """
        { "frame": [0, 0, 10, 10], "backgroundColor": "#000000" },
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#\(String(format: "%02x", color))4080",
          "path": "M 12 2 L 30 2 L 30 18 L 12 18 Z" }
        """)
    }
    _ = try render(json(0x10), cpuPaths: true, renderer: renderer)
    let drawn = renderer.runner.pathRuns.drawn
    _ = try render(json(0x10), cpuPaths: true, renderer: renderer)
    XCTAssertEqual(renderer.runner.pathRuns.drawn, drawn, "the same run: its bitmap kept")
    let textures = renderer.runner.executor.textures.count
    for color in stride(from: 0x20, to: 0xa0, by: 0x10) {
      let (image, _) = try render(json(color), cpuPaths: true, renderer: renderer)
      XCTAssertEqual(pixel(image, 20, 10), [color, 0x40, 0x80, 255])
    }
    XCTAssertEqual(renderer.runner.pathRuns.drawn, drawn + 8)
    XCTAssertEqual(renderer.runner.pathRuns.count, 1, "only the last frame's bitmap")
    XCTAssertLessThanOrEqual(renderer.runner.executor.textures.count, textures)
    // Nothing holds a dropped bitmap past the frame after: from the third
    // color on, each run is drawn into the pixels of the run two frames
    // before (`PathRunScratch`).
    XCTAssertGreaterThanOrEqual(renderer.runner.pathRuns.scratch.recycled, 6)
  }

  /// A run over the same place as the last frame's, of which one part
  /// moved, is drawn again only over that part's old and new boxes, into
  /// the last frame's bitmap (`PathRunCache`, `PathRunRasterizer.render(_:width:height:background:scratch:order:redrawing:)`):
  /// frame after frame the same bytes as a renderer of its own draws
  /// whole, where the part passes over a stroke cut by a rounded clip
  /// (Cairo's, within the damage's clip), a group masked by a path (its
  /// bitmaps of its whole box, composited within the damage) and fills
  /// (FreeType's, within the damage's box).
  func testARunIsDrawnAgainOnlyWhereItChanged() throws {
    func json(_ x: Int) -> String {
      scene(
        """
        { "frame": [4, 4, 100, 52], "masksToBounds": true, "cornerRadius": 10, "sublayers": [
          { "class": "CAShapeLayer", "frame": [0, 0, 100, 52], "fillColor": "#d08020",
            "strokeColor": "#202080", "lineWidth": 3, "lineCap": "round",
            "path": "M -10 -10 L 110 -10 L 110 60 L -10 60 Z M 10 10 C 30 -5 50 45 90 20" } ] },
        { "class": "CAShapeLayer", "frame": [110, 4, 40, 40], "fillColor": "#2080d0",
          "path": "M 0 0 L 40 0 L 40 40 Z",
          "mask": { "class": "CAShapeLayer", "fillColor": "#000000",
            "path": "M 20 2 C 30 2 38 10 38 20 C 38 30 30 38 20 38 C 10 38 2 30 2 20 C 2 10 10 2 20 2 Z" } },
        { "class": "CAShapeLayer", "frame": [\(x), 30, 30, 30], "fillColor": "#40c040a0",
          "strokeColor": "#000000", "lineWidth": 2, "path": "M 2 2 L 28 2 L 15 28 Z" }
        """, width: 200, height: 64)
    }
    let renderer = try Renderer()
    _ = try render(json(20), cpuPaths: true, renderer: renderer)
    var redrawn = 0
    for x in [23, 40, 71, 96, 118, 131, 160] {
      let (image, plan) = try render(json(x), cpuPaths: true, renderer: renderer)
      let (whole, alone) = try render(json(x), cpuPaths: true)
      XCTAssertEqual(alone.cpuPathRunsRedrawn, 0)
      XCTAssertEqual(
        alone.cpuPathRunPixels, 200 * 64, "a renderer of its own draws the whole canvas")
      XCTAssertEqual(plan.cpuPathRuns, 1)
      XCTAssertLessThan(plan.cpuPathRunPixels, 200 * 64 * 6 / 10, "at x \(x)")
      redrawn += plan.cpuPathRunsRedrawn
      let differing = zip(image.premultipliedPixels, whole.premultipliedPixels).enumerated()
        .filter { $0.element.0 != $0.element.1 }
      let first = differing.first.map {
        "first at (\($0.offset / 4 % 200), \($0.offset / 4 / 200)): \($0.element)"
      }
      XCTAssertEqual(
        differing.count, 0,
        "bytes that differ with the moved part at x \(x); \(first ?? "")")
    }
    XCTAssertEqual(redrawn, 7, "every frame drawn only where it changed")
    XCTAssertEqual(renderer.runner.pathRuns.redrawn, 7)
  }

  /// A layer whose `strokeEnd` animates keeps its fill and its stroke on
  /// the GPU (where a new trim costs uniforms); a still one beside it is
  /// drawn by Cairo.
  func testALayerWhoseTrimAnimatesStaysOnTheGPU() throws {
    let json = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
        "strokeColor": "#000000", "lineWidth": 2, "path": "M 2 2 L 18 2 L 18 18 L 2 18 Z",
        "animations": [ { "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1 } ] },
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#c02040",
        "path": "M 24 2 L 38 2 L 38 18 L 24 18 Z" }
      """)
    let (image, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 1)
    XCTAssertEqual(plan.cpuPathItems, 1, "the still layer's fill")
    XCTAssertEqual(pixel(image, 10, 10), [0x20, 0x40, 0xc0, 255])
    XCTAssertEqual(pixel(image, 30, 10), [0xc0, 0x20, 0x40, 255])
  }

  /// Inside a group a run draws whole (faded, over two overlapping
  /// layers), the same animated layer is drawn on the CPU with the group:
  /// its pass would be drawn again every frame the trim moves. Half the
  /// trim is stroked, as on the GPU.
  func testALayerWhoseTrimAnimatesInAGroupIsDrawnWithIt() throws {
    let json = scene(
      """
      { "frame": [0, 0, 40, 20], "opacity": 0.5, "sublayers": [
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "strokeColor": "#000000",
          "lineWidth": 4, "path": "M 2 10 L 38 10",
          "animations": [ { "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1,
                            "timeOffset": 0.5 } ] },
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#c02040",
          "path": "M 24 2 L 38 2 L 38 18 L 24 18 Z" } ] }
      """)
    let (image, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 1)
    XCTAssertEqual(plan.cpuPathItems, 2, "the stroke and the fill, in the group")
    XCTAssertEqual(plan.targets.count, 1, "no target but the canvas")
    // Black at half opacity over white where the trim reached (x 2...20).
    for (got, want) in zip(pixel(image, 10, 10), [128, 128, 128, 255]) {
      XCTAssertEqual(got, want, accuracy: 1)
    }
    XCTAssertEqual(pixel(image, 16, 16), [255, 255, 255, 255], "off the stroke")
    let (gpu, _) = try render(json, cpuPaths: false)
    XCTAssertEqual(pixel(gpu, 10, 10), pixel(image, 10, 10))
    XCTAssertEqual(pixel(gpu, 22, 10), pixel(image, 22, 10), "past the trim: the background")
  }

  /// A dash pattern whose dashes along the path number more than
  /// `maxDashes` stays on the GPU (Cairo would stroke each of them: a
  /// hostile file's 0.02-point dashes along a long path are millions); a
  /// coarse one on the same path is drawn by Cairo.
  func testCountlessDashesStayOnTheGPU() throws {
    func json(_ dash: Double) -> String {
      // A zig-zag of 500 segments 20 points tall: 10,000 points long.
      var path = "M 0 10"
      for i in 0..<500 { path += " L \(Double(i) * 0.08 + 0.04) \(i % 2 == 0 ? 0 : 20)" }
      return scene(
        """
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": null,
          "strokeColor": "#2040c0", "lineWidth": 1, "lineDashPattern": [\(dash), \(dash)],
          "path": "\(path)" }
        """)
    }
    let start = Date()
    let (_, fine) = try render(json(0.25), cpuPaths: true)
    XCTAssertEqual(fine.cpuPathRuns, 0, "20,000 dashes: the GPU's")
    XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    let (_, coarse) = try render(json(5), cpuPaths: true)
    XCTAssertEqual(coarse.cpuPathRuns, 1, "1,000 dashes: Cairo's")
  }

  /// A path under a perspective stays on the GPU.
  func testAPathUnderAPerspectiveStaysOnTheGPU() throws {
    let json = scene(
      """
      { "frame": [0, 0, 40, 20], "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1],
        "sublayers": [
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
          "transform": [0.9,0,0.43,0, 0,1,0,0, -0.43,0,0.9,0, 0,0,0,1],
          "path": "M 5 5 L 35 5 L 35 15 L 5 15 Z" } ] }
      """)
    let (image, plan) = try render(json, cpuPaths: true)
    XCTAssertEqual(plan.cpuPathRuns, 0)
    XCTAssertEqual(pixel(image, 20, 10), [0x20, 0x40, 0xc0, 255])
  }

  /// A fill that Cairo draws is never tessellated (the planner reads only
  /// its mesh's identity and bounds); under a perspective, which the GPU
  /// draws, and on the GPU path renderer it is, and both draw the fill.
  func testFillsCairoDrawsAreNotTessellated() throws {
    let path = "M 5 5 C 15 -2 30 25 35 5 L 30 15 L 5 15 Z"
    let flat = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0", "path": "\(path)" }
      """)
    let tilted = scene(
      """
      { "frame": [0, 0, 40, 20], "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.01, 0,0,0,1],
        "sublayers": [
        { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
          "transform": [0.9,0,0.43,0, 0,1,0,0, -0.43,0,0.9,0, 0,0,0,1], "path": "\(path)" } ] }
      """)
    let cgPath = try CGPath.parseSVG(path)
    // The fill meshes the renderer's cache holds for the path, at any
    // flattening octave.
    func meshes(_ renderer: Renderer) -> [FillMesh] {
      (-8...8).compactMap { level in
        let key = PathGeometryCache.Key.fill(cgPath, evenOdd: false, level: level)
        guard case .mesh(let mesh) = renderer.caches.paths.entries.value(forKey: key) else {
          return nil
        }
        return mesh as? FillMesh
      }
    }
    let cpu = try Renderer()
    let (image, plan) = try render(flat, cpuPaths: true, renderer: cpu)
    XCTAssertEqual(plan.cpuPathItems, 1)
    XCTAssertTrue(cpu.caches.defersFills)
    XCTAssertEqual(meshes(cpu).count, 1)
    XCTAssertEqual(meshes(cpu).filter(\.isTessellated).count, 0)
    XCTAssertEqual(pixel(image, 10, 10), [0x20, 0x40, 0xc0, 255])
    let perspective = try Renderer()
    let (tiltedImage, tiltedPlan) = try render(tilted, cpuPaths: true, renderer: perspective)
    XCTAssertEqual(tiltedPlan.cpuPathRuns, 0)
    XCTAssertEqual(meshes(perspective).filter(\.isTessellated).count, 1)
    XCTAssertEqual(pixel(tiltedImage, 20, 10), [0x20, 0x40, 0xc0, 255])
    let gpu = try Renderer()
    let (gpuImage, _) = try render(flat, cpuPaths: false, renderer: gpu)
    XCTAssertFalse(gpu.caches.defersFills)
    XCTAssertEqual(meshes(gpu).filter(\.isTessellated).count, 1)
    XCTAssertEqual(pixel(gpuImage, 10, 10), [0x20, 0x40, 0xc0, 255])
  }

  /// On a software rasterizer a run written first into its pass covers
  /// all the clear would, the clear color around its paths, and the pass
  /// is not cleared (`PlanOptions.clearsByUpload`): the same pixels as a
  /// clear and the run's own box. The renderer's canvas is kept from frame
  /// to frame, so a second frame whose run is small shows the first
  /// frame's paint wherever its upload would leave a pixel unwritten.
  func testARunFirstInItsPassReplacesTheClear() throws {
    let whole = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#c02040",
        "path": "M 0 0 L 40 0 L 40 20 L 0 20 Z" }
      """)
    let corner = scene(
      """
      { "class": "CAShapeLayer", "frame": [0, 0, 40, 20], "fillColor": "#2040c0",
        "path": "M 2 2 L 8 2 L 8 8 L 2 8 Z" }
      """)
    var images: [Bool: RenderedImage] = [:]
    for replaces in [true, false] {
      let renderer = try Renderer()
      renderer.clearsByUpload = replaces
      _ = try render(whole, cpuPaths: true, renderer: renderer)
      let (image, plan) = try render(corner, cpuPaths: true, renderer: renderer)
      let pass = try canvasPass(plan)
      let upload = try XCTUnwrap(pass.upload)
      XCTAssertEqual(pass.uploadReplacesClear, replaces)
      XCTAssertNotNil(pass.clear, "the plan still says what the pixels start as")
      let canvas = PixelRect(x: 0, y: 0, width: 40, height: 20)
      if replaces {
        XCTAssertEqual(upload.written, canvas)
      } else {
        XCTAssertLessThanOrEqual(upload.written.width, 12, "the run's own box")
      }
      XCTAssertEqual(renderer.counters.drawCalls, 0)
      XCTAssertEqual(pixel(image, 5, 5), [0x20, 0x40, 0xc0, 255])
      XCTAssertEqual(pixel(image, 30, 10), [255, 255, 255, 255], "the clear color, not the red")
      XCTAssertEqual(pixel(image, 0, 19), [255, 255, 255, 255])
      images[replaces] = image
    }
    XCTAssertEqual(images[true]?.premultipliedPixels, images[false]?.premultipliedPixels)
  }
}
