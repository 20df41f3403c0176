import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Groups drawn whole on the CPU (`FramePlanner.drawsWholeOnCPU`): a
/// masked, faded or clipped layer whose rendering and mask are paths
/// alone is drawn into the run of the paths around it, with no pass for
/// it or its mask. Each case is compared with the same frame drawn with
/// those groups offscreen (their contents and masks by the same CPU runs,
/// composited on the GPU): the same coverage, so within the rounding of
/// the composite (a level or two).
final class CPUGroupTests: XCTestCase {
  func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
  }

  func shape(_ path: CGPath, fill: CGColor?, stroke: CGColor? = nil, width: CGFloat = 6) -> CAShapeLayer {
    let layer = CAShapeLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
    layer.path = path
    layer.fillColor = fill
    layer.strokeColor = stroke
    layer.lineWidth = width
    return layer
  }

  /// Two overlapping paths (a fill, a translucent stroke of a curve).
  func content() -> CALayer {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
    layer.addSublayer(
      shape(CGPath(ellipseIn: CGRect(x: 14, y: 10, width: 70, height: 56), transform: nil),
        fill: color(0.9, 0.3, 0.1)))
    let curve = CGMutablePath()
    curve.move(to: CGPoint(x: 10, y: 70))
    curve.addCurve(to: CGPoint(x: 110, y: 20), control1: CGPoint(x: 40, y: 0), control2: CGPoint(x: 70, y: 95))
    layer.addSublayer(shape(curve, fill: nil, stroke: color(0.1, 0.4, 0.9, 0.7), width: 9))
    return layer
  }

  /// A path before the group and one after, around `group`, over a
  /// background.
  func scene(_ group: CALayer) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 90)
    root.position = CGPoint(x: 60, y: 45)
    root.backgroundColor = color(0.15, 0.15, 0.2)
    root.addSublayer(
      shape(CGPath(rect: CGRect(x: 50, y: 40, width: 60, height: 40), transform: nil),
        fill: color(0.2, 0.8, 0.3, 0.9)))
    root.addSublayer(group)
    root.addSublayer(
      shape(CGPath(ellipseIn: CGRect(x: 4, y: 4, width: 24, height: 24), transform: nil),
        fill: color(1, 1, 0.2, 0.8)))
    return root
  }

  /// An ellipse filled at 80 %, with a hole (a second, even-odd one).
  func ellipseMask() -> CAShapeLayer {
    let path = CGMutablePath()
    path.addEllipse(in: CGRect(x: 20, y: 8, width: 84, height: 70))
    path.addEllipse(in: CGRect(x: 50, y: 30, width: 20, height: 20))
    let mask = shape(path, fill: color(1, 1, 1, 0.8))
    mask.fillRule = .evenOdd
    return mask
  }

  func render(_ root: CALayer, cpuGroups: Bool) throws -> (RenderedImage, RenderCounters) {
    try RenderTestSupport.renderLayer(root) { renderer in
      renderer.cpuPaths = true
      renderer.cpuGroups = cpuGroups
      // Masks offscreen in the comparison (a mask that is one path would
      // be the GPU's coverage there).
      renderer.pathMasks = cpuGroups
    }
  }

  /// `make`'s scene drawn with groups on the CPU and offscreen: no pass
  /// against `offscreen` passes, one run, the pixels within `threshold`.
  func check(
    _ name: String, offscreen: Int, threshold: Int = 3, _ make: () -> CALayer,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let (cpu, counters) = try render(scene(make()), cpuGroups: true)
    let (gpu, gpuCounters) = try render(scene(make()), cpuGroups: false)
    XCTAssertEqual(counters.offscreenPasses, 0, name, file: file, line: line)
    XCTAssertEqual(gpuCounters.offscreenPasses, offscreen, name, file: file, line: line)
    XCTAssertEqual(counters.cpuPathRuns, 1, "\(name): one run for everything", file: file, line: line)
    XCTAssertEqual(counters.drawCalls, 2, "\(name): the background, then the run's quad", file: file, line: line)
    let comparison = ImageComparison(
      actual: cpu.straightPixels, expected: gpu.straightPixels, threshold: threshold)
    XCTAssertEqual(comparison.pixelsOff, 0, "\(name): \(comparison.summary)", file: file, line: line)
    // Something of the group shows: not the scene without it.
    let without = try render(scene(CALayer()), cpuGroups: true).0
    let shown = ImageComparison(actual: cpu.straightPixels, expected: without.straightPixels, threshold: 8)
    XCTAssertGreaterThan(shown.pixelsOff, 2000, name, file: file, line: line)
  }

  func testMaskedGroupsOfEveryMaskModeTakeNoPass() throws {
    let modes: [(String, CALayerMaskMode)] = [
      ("alpha", .alpha), ("alpha inverted", .alphaInverted), ("luminance", .luminance),
      ("luminance inverted", .luminanceInverted),
    ]
    for (name, mode) in modes {
      try check("masked by its \(name)", offscreen: 2) {
        let group = self.content()
        let mask = self.ellipseMask()
        // A colored mask: its luminance is not its alpha.
        mask.fillColor = self.color(0.2, 0.9, 0.5, 0.8)
        group.mask = mask
        group.maskMode = mode
        return group
      }
    }
  }

  func testFadedAndClippedGroupsTakeNoPass() throws {
    try check("faded", offscreen: 1) {
      let group = self.content()
      group.opacity = 0.6
      return group
    }
    try check("turned, rounded clip, faded", offscreen: 1) {
      let holder = CALayer()
      holder.frame = CGRect(x: 14, y: 8, width: 84, height: 70)
      holder.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
      holder.masksToBounds = true
      holder.cornerRadius = 16
      holder.opacity = 0.7
      let inner = self.content()
      inner.frame = inner.frame.offsetBy(dx: -14, dy: -8)
      holder.addSublayer(inner)
      return holder
    }
  }

  /// Groups inside groups: a faded group and a gradient painted over a
  /// stroke inside a masked group, whose mask is itself two shapes
  /// (offscreen, with masks not drawn as paths: the outer group, its
  /// mask, the faded group, the gradient and its mask).
  func testNestedGroupsAndGradientsTakeNoPass() throws {
    try check("nested", offscreen: 5) {
      let outer = self.content()
      let faded = self.content()
      faded.opacity = 0.5
      faded.transform = CATransform3DMakeScale(0.6, 0.6, 1)
      outer.addSublayer(faded)
      let gradient = CAGradientLayer()
      gradient.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
      gradient.colors = [self.color(1, 0.2, 0.6), self.color(0.2, 0.9, 1, 0.6)]
      gradient.startPoint = CGPoint(x: 0, y: 0.5)
      gradient.endPoint = CGPoint(x: 1, y: 0.5)
      let stroke = self.shape(
        CGPath(ellipseIn: CGRect(x: 30, y: 20, width: 60, height: 50), transform: nil), fill: nil,
        stroke: self.color(0, 0, 0), width: 7)
      gradient.mask = stroke
      outer.addSublayer(gradient)
      let mask = CALayer()
      mask.frame = outer.bounds
      mask.addSublayer(self.ellipseMask())
      mask.addSublayer(
        self.shape(CGPath(rect: CGRect(x: 0, y: 60, width: 120, height: 30), transform: nil),
          fill: self.color(0, 0, 0, 0.5)))
      outer.mask = mask
      return outer
    }
  }

  /// Solids in a group drawn whole (`FramePlanner.isCPUSolid`): a luma
  /// matte that is a solid layer with a darker path over it (After
  /// Effects' solid mattes), and a solid off the pixel grid among the
  /// content's paths, filled as rects by the run: no pass for the group or
  /// its mask, the same edges as the GPU's.
  func testSolidsInAGroupAndItsMaskTakeNoPass() throws {
    try check("solid matte", offscreen: 2) {
      let group = self.content()
      let solid = CALayer()
      solid.frame = CGRect(x: 30.3, y: 20.6, width: 50.5, height: 30.2)
      solid.backgroundColor = self.color(0.2, 0.3, 1, 0.8)
      group.addSublayer(solid)
      let mask = CALayer()
      mask.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
      mask.backgroundColor = self.color(1, 1, 1)
      mask.addSublayer(
        self.shape(
          CGPath(ellipseIn: CGRect(x: 40, y: 25, width: 40, height: 40), transform: nil),
          fill: self.color(0.3, 0.3, 0.3)))
      group.mask = mask
      group.maskMode = .luminance
      return group
    }
  }

  /// Color filters (`filters` of color matrices: a Lottie Fill or Tint
  /// effect) on a group of paths are applied by the CPU to its bitmap
  /// (`PathRunRasterizer.ColorFilter`): no pass for the rendering nor for
  /// each filter, the pixels of colormatrix.frag's within its rounding.
  /// A filter with a bias of alpha (which would color the transparent
  /// pixels around the paths) and a blur keep the passes.
  func testColorFiltersOfAGroupTakeNoPass() throws {
    func filter(_ name: String, _ inputs: [String: Any] = [:]) -> CIFilter {
      let f = CIFilter(name: name)!
      for (k, v) in inputs { f.setValue(v, forKey: k) }
      return f
    }
    // Alpha scaled too: filters of colors alone on flat paths are folded
    // into the paths' colors by frame building, with no group at all.
    let fade = filter(
      "CIColorMatrix",
      [
        "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 0.8),
        "inputRVector": CIVector(x: 1, y: 0, z: 0, w: 0),
        "inputGVector": CIVector(x: 0, y: 1, z: 0, w: 0),
        "inputBVector": CIVector(x: 0, y: 0, z: 1, w: 0),
      ])
    let chains: [(String, [CIFilter], Int)] = [
      ("invert", [filter("CIColorInvert"), fade], 3),
      (
        "saturation, then sepia",
        [
          filter(
            "CIColorControls",
            ["inputSaturation": 0.3, "inputBrightness": 0.1, "inputContrast": 1.2]),
          filter("CISepiaTone", ["inputIntensity": 0.7]), fade,
        ], 4
      ),
      (
        "a matrix into one color",
        [
          filter(
            "CIColorMatrix",
            [
              "inputRVector": CIVector(x: 0, y: 0, z: 0, w: 0),
              "inputGVector": CIVector(x: 0, y: 0, z: 0, w: 0),
              "inputBVector": CIVector(x: 0, y: 0, z: 0, w: 0),
              "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 0.9),
              "inputBiasVector": CIVector(x: 0.9, y: 0.2, z: 0.4, w: 0),
            ])
        ], 2
      ),
    ]
    for (name, filters, offscreen) in chains {
      try check(name, offscreen: offscreen) {
        let group = self.content()
        group.filters = filters
        return group
      }
    }
    for (name, kept) in [
      (
        "alpha bias",
        filter("CIColorMatrix", ["inputBiasVector": CIVector(x: 0, y: 0, z: 0, w: 0.2)])
      ),
      ("blur", filter("CIGaussianBlur", ["inputRadius": 2.0])),
    ] {
      let group = content()
      group.filters = [kept]
      let (_, counters) = try render(scene(group), cpuGroups: true)
      XCTAssertGreaterThan(counters.offscreenPasses, 0, name)
    }
  }

  /// A group with a blend mode (`compositingFilter`) whose rendering is
  /// paths is drawn whole on the CPU and blended by the GPU as a quad of
  /// its bitmap (`drawsBlendedOnCPU`): no pass, against its target's, the same
  /// pixels within the composite's rounding, for every mode.
  func testBlendedGroupsTakeNoPass() throws {
    for mode in CIFilter.blendModeNames {
      let make = {
        let group = self.content()
        group.compositingFilter = mode
        group.opacity = 0.8
        return group
      }
      let (cpu, counters) = try render(scene(make()), cpuGroups: true)
      let (gpu, gpuCounters) = try render(scene(make()), cpuGroups: false)
      XCTAssertEqual(counters.offscreenPasses, 0, mode)
      // The group's target (and, without the blend equations, a copy of
      // what is behind it).
      XCTAssertGreaterThanOrEqual(gpuCounters.offscreenPasses, 1, mode)
      // The background, the run under the group, the group, the run over it.
      XCTAssertEqual(counters.drawCalls, 4, mode)
      let comparison = ImageComparison(
        actual: cpu.straightPixels, expected: gpu.straightPixels, threshold: 3)
      XCTAssertEqual(comparison.pixelsOff, 0, "\(mode): \(comparison.summary)")
      let plain = try render(scene(content()), cpuGroups: true).0
      let blended = ImageComparison(
        actual: cpu.straightPixels, expected: plain.straightPixels, threshold: 8)
      XCTAssertGreaterThan(blended.pixelsOff, 500, "\(mode) differs from source over")
    }
  }

  /// Blend modes inside a group drawn whole on the CPU (a faded group over
  /// its own transparent pixels: what it draws is all that is behind):
  /// a blended group and a blended shape are blended by the CPU
  /// (`BlendModePixels`) into the group's bitmap, the same pixels as the
  /// GPU's blend equations in the group's target.
  func testBlendModesInsideAGroupAreTheCPUs() throws {
    let modes = ["CIMultiplyBlendMode", "CIOverlayBlendMode", "CIDifferenceBlendMode", "CIColorBlendMode"]
    for mode in modes {
      let make = {
        let outer = self.content()
        outer.opacity = 0.9
        let inner = self.content()
        inner.transform = CATransform3DMakeTranslation(20, 10, 0)
        inner.compositingFilter = mode
        outer.addSublayer(inner)
        let dot = self.shape(
          CGPath(ellipseIn: CGRect(x: 40, y: 30, width: 50, height: 40), transform: nil),
          fill: self.color(0.3, 0.9, 0.6, 0.7))
        dot.compositingFilter = mode
        outer.addSublayer(dot)
        return outer
      }
      let (cpu, counters) = try render(scene(make()), cpuGroups: true)
      let (gpu, gpuCounters) = try render(scene(make()), cpuGroups: false)
      XCTAssertEqual(counters.offscreenPasses, 0, mode)
      XCTAssertEqual(counters.cpuPathRuns, 1, "\(mode): one run for everything")
      XCTAssertEqual(gpuCounters.offscreenPasses, 2, mode)
      let comparison = ImageComparison(
        actual: cpu.straightPixels, expected: gpu.straightPixels, threshold: 3)
      XCTAssertEqual(comparison.pixelsOff, 0, "\(mode): \(comparison.summary)")
    }
  }

  /// A faded group turned in perspective keeps its pass: its paths are not
  /// on an affine plane, which a run cannot draw (the GPU draws them and
  /// the group's composite).
  func testAGroupInPerspectiveKeepsItsPass() throws {
    let group = content()
    group.opacity = 0.6
    var t = CATransform3DIdentity
    t.m34 = -1 / 200
    group.transform = CATransform3DRotate(t, 0.5, 0, 1, 0)
    let (image, counters) = try render(scene(group), cpuGroups: true)
    XCTAssertEqual(counters.offscreenPasses, 1)
    let without = try render(scene(CALayer()), cpuGroups: true).0
    let shown = ImageComparison(actual: image.straightPixels, expected: without.straightPixels, threshold: 8)
    XCTAssertGreaterThan(shown.pixelsOff, 1000, "the group is drawn")
  }

  /// A group holding what a run cannot draw keeps its pass: a solid layer
  /// with rounded corners, or a solid clipped by a rounded layer, whose
  /// pieces away from the corners leave their seams hard (a fill of each
  /// would antialias them).
  func testAGroupWithOtherContentKeepsItsPass() throws {
    for clipped in [false, true] {
      let group = content()
      group.opacity = 0.6
      let solid = CALayer()
      solid.backgroundColor = color(0.3, 0.3, 1)
      if clipped {
        let holder = CALayer()
        holder.frame = CGRect(x: 30.5, y: 30.25, width: 40, height: 20)
        holder.cornerRadius = 6
        holder.masksToBounds = true
        solid.frame = CGRect(x: -5, y: -5, width: 50, height: 30)
        holder.addSublayer(solid)
        group.addSublayer(holder)
      } else {
        solid.frame = CGRect(x: 30.5, y: 30.25, width: 40, height: 20)
        solid.cornerRadius = 6
        group.addSublayer(solid)
      }
      let (_, counters) = try render(scene(group), cpuGroups: true)
      XCTAssertEqual(counters.offscreenPasses, 1, clipped ? "clipped" : "rounded")
    }
  }
}
