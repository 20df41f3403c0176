import Foundation
import Lamina
import LaminaLottie
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Documents of our own for what the conformance files lack (text, repeater,
/// 3D, time remapping, effects and blend modes, a typical "success"
/// animation with trim paths, masks, parenting and overshoot), rendered at
/// given frames and compared with goldens that were looked at: at most 1 %
/// of pixels off by more than 8/255 over black or white.
/// `RECORD_GOLDENS=1` writes the goldens instead.
final class GoldenTests: XCTestCase {
  static var fixtures: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures") }

  nonisolated(unsafe) static var renderer: Renderer?

  func check(_ name: String, frames: [Double], unsupported: [String] = []) throws {
    let renderer = try Self.renderer ?? Renderer()
    Self.renderer = renderer
    let a = try LottieAnimation(contentsOf: Self.fixtures.appendingPathComponent("\(name).json"))
    XCTAssertEqual(Set(a.unsupported.map(\.feature)), Set(unsupported), name)
    for frame in frames {
      let image = try renderer.render(
        layer: a.rootLayer, size: CGSize(width: a.width, height: a.height), scale: 2,
        time: a.time(ofFrame: frame))
      let golden = Self.fixtures.appendingPathComponent("goldens/\(name)-\(Int(frame)).png")
      if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
        try image.writePNG(to: golden)
        continue
      }
      let reference = try CGImage.decode(fileAt: golden.path)
      XCTAssertEqual(reference.width, image.width)
      let off = ConformanceTests.fractionOff(image.straightPixels, reference.pixels)
      XCTAssertLessThanOrEqual(off, 0.01, "\(name) frame \(frame): \(off) of pixels off")
    }
  }

  func testText() throws {
    try check("text", frames: [0])
  }

  func testRepeater() throws { try check("repeater", frames: [0]) }

  /// An animated repeater (rotation and start opacity keyframed), as in
  /// rlottie's 4479-fireworks.json sample: each copy's transform and opacity
  /// follow the keyframes (the golden matches rlottie's frames 0, 15, 30).
  func testAnimatedRepeater() throws { try check("repeater-animated", frames: [0, 15, 30]) }

  /// Masks whose path morphs from a circle to a square (subtract and add),
  /// as rlottie's mask.json sample: the path is interpolated at every frame,
  /// not switched from one keyframe to the next (the golden matches rlottie).
  func testMaskPathMorph() throws { try check("mask-morph", frames: [0, 15, 30]) }

  /// What most of the real samples that differed exercise (see "Real files"
  /// in docs/lottie.md): a shape layer's start time `st` (10) does not move
  /// its own keyframes, which are in its composition's time (lottie-web,
  /// lottie-android and rlottie read them so): the red square is at x 50,
  /// 80, 80 at frames 10, 20, 30. And Round Corners on a path with a radius
  /// over half a side makes the square a disc (rlottie rounds only
  /// rectangles and stars; After Effects rounds paths too).
  func testStartTimeAndRoundCornersOnAPath() throws {
    try check("start-time-round-corners", frames: [10, 20, 30])
  }

  func test3DAndTimeRemapping() throws { try check("threed-timeremap", frames: [0, 15, 30]) }

  /// A camera layer (`LottieCameraTests` checks the points by hand): the
  /// red square far away and small, the blue one turned 60° about y with
  /// its right edge nearer (taller), the green child of a null 100 deep
  /// small; the black 2D square in the corner drawn without the camera. At
  /// frame 30 the camera has moved 50 nearer: all but the black square larger.
  func testCamera() throws { try check("camera", frames: [0, 30]) }

  func testEffectsAndBlendModes() throws { try check("effects", frames: [0]) }

  func testSuccessAnimation() throws { try check("success", frames: [0, 10, 20, 30, 50]) }

  // MARK: Bugs found on real files (issue 33)

  /// A fill's blend mode (10, difference: the blue rect) and a stroke's
  /// (11, exclusion: the black ring) blend with what their layer drew below
  /// them only, not with the green layer under it (After Effects,
  /// lottie-web and rlottie): blue over red is magenta, blue over nothing
  /// of its layer stays blue, the black ring stays black over the green.
  func testShapeBlendModeBlendsWithinItsLayer() throws {
    try check("shape-blend", frames: [0])
    let image = try Self.render("shape-blend", frame: 0)
    // Points, at scale 2: blue over red; blue beside it; the ring's top.
    XCTAssertEqual(Self.pixel(image, 50, 50), [255, 0, 255, 255])
    XCTAssertEqual(Self.pixel(image, 90, 50), [0, 0, 255, 255])
    XCTAssertEqual(Self.pixel(image, 50, 7), [0, 0, 0, 255])
  }

  /// A child of an auto-oriented null (`ao: 1`) turns with it: the arrow
  /// points along the null's motion (up and right, then down and right),
  /// as both peers draw it.
  func testAutoOrientedParentTurnsItsChildren() throws {
    try check("auto-orient-parent", frames: [10, 30, 50])
  }

  /// A negative time stretch (`sr: -1`, After Effects' time reverse): the
  /// precomposition's content runs backwards from its start time (60): the
  /// square is at the right at frame 0, in the middle at 30, near the left
  /// at 50 (inner frame (f − st) / sr, as lottie-web).
  func testNegativeTimeStretchReversesTime() throws {
    try check("time-reverse", frames: [0, 30, 50])
  }

  /// At the document's end (`--time` of (op − ip) / fr, frame 82 of 82)
  /// the layers that last to `op` (the blue square, the precomposition's
  /// green square) show their last frame, as lottie-ios keeps layers that
  /// end at `op` visible at `op`; the red bar (out-point 60) does not.
  func testLastFrameShowsAtTheOutPoint() throws {
    try check("out-point", frames: [81, 82])
  }

  /// Eased, many-segment time remapping: the square (which moves right and
  /// fades over the inner composition's first second) follows the eased
  /// remap at frame 10 (inner 0.21 s), holds at 35 (inner 1 s: right,
  /// faded) and runs back at 50 (inner 0.75 s).
  func testEasedTimeRemapping() throws {
    try check("time-remap-eased", frames: [10, 35, 50])
  }

  /// Merge paths modes on a fill, a rect and a growing ellipse (animated
  /// size): add (union), subtract (rect less ellipse), intersect, exclude.
  func testMergePathModes() throws {
    try check("merge-paths", frames: [0, 30])
    let image = try Self.render("merge-paths", frame: 0)
    // Rect only (x 20), both (x 50), ellipse only (x 80): filled or not.
    let expected: [[Bool]] = [[true, true, true], [true, false, false], [false, true, false], [true, false, true]]
    for (i, row) in expected.enumerated() {
      for (x, filled) in zip([20, 50, 80], row) {
        let p = Self.pixel(image, 100 * i + x, 50)
        XCTAssertEqual(p, filled ? [242, 128, 26, 255] : [255, 255, 255, 255], "mode \(i + 2) at x \(x)")
      }
    }
  }

  // MARK: Text (issue 33)

  /// Text drawn from the document's glyph shapes (`chars`: L, O with its
  /// hole, T, space) in a font no machine has: size 30, tracking 50,
  /// centred, two lines 40 apart, filled orange and stroked purple over the
  /// fill; a second text document (frame 30: "TOOL", left-justified, no
  /// tracking) replaces the first.
  func testTextFromGlyphShapesAndDocumentKeyframes() throws {
    try check("text-glyphs", frames: [0, 30])
    let first = try Self.render("text-glyphs", frame: 0)
    // The O of the first line ("LOT" centred at x 100, 30/100 scale,
    // tracking 1.5): its hole is white, its left bar orange.
    // Line width: (60 + 70 + 60) × 0.3 + 2 × 1.5 = 60; O from x 70 + 19.5.
    XCTAssertEqual(Self.pixel(first, 100, 40), [255, 255, 255, 255])
    XCTAssertEqual(Self.pixel(first, 93, 40), [242, 140, 26, 255])
    let second = try Self.render("text-glyphs", frame: 30)
    // "TOOL" left-justified from x 100: the first line's O is gone.
    XCTAssertEqual(Self.pixel(second, 93, 40), [255, 255, 255, 255])
  }

  /// Text animators with range selectors on glyph text ("LOTTO"): a
  /// reveal (opacity 0 and 40° on the characters from the animated start,
  /// 0 % to 100 % over frames 0–25: they appear one by one, upright) and a
  /// wave (a triangle selector whose offset runs from −100 % to 100 %:
  /// characters under it rise 25, grow to 140 % and turn blue).
  func testTextAnimatorsWithRangeSelectors() throws {
    try check("text-animators", frames: [0, 10, 15, 30])
    let start = try Self.render("text-animators", frame: 0)
    let end = try Self.render("text-animators", frame: 30)
    // Frame 0: every character hidden (the reveal covers them all).
    XCTAssertEqual(Self.pixel(start, 100, 60), [255, 255, 255, 255])
    // Frame 30: all shown, upright and orange, the wave gone: the middle
    // T's stem (x 100, y 50…75) is orange.
    XCTAssertEqual(Self.pixel(end, 100, 65), [242, 140, 26, 255])
    // Frame 10: the reveal's start is at 40 % (2 of 5 characters): the
    // first two shown, the rest hidden; at frame 5 (start 1 character)
    // the second is at full strength of the reveal too (opacity 0).
    let a = try LottieAnimation(contentsOf: Self.fixtures.appendingPathComponent("text-animators.json"))
    for (frame, expected) in [(10.0, [1, 1, 0, 0, 0] as [Float]), (5.0, [1, 0, 0, 0, 0]), (2.5, [0.5, 0, 0, 0, 0])] {
      let p = LottieTestSupport.presentation(a, at: a.time(ofFrame: frame))
      let characters = try XCTUnwrap(LottieTestSupport.named("glyphs", in: p)?.sublayers)
      for (c, e) in zip(characters.map(\.opacity), expected) { XCTAssertEqual(c, e, accuracy: 1e-4, "frame \(frame)") }
    }
  }

  /// Text on a path (glyph text): "LOTTO TOOL" along an arc from 10
  /// past its start, each character turned to the path (perpendicular),
  /// and centred on a wave; the paths drawn grey beneath as guides.
  func testTextOnAPath() throws {
    try check("text-on-path", frames: [0])
  }

  /// Font styles of `fonts.list` (`fStyle`) through Pango: DejaVu Sans
  /// regular, bold, oblique, bold oblique and extra light, each a Pango
  /// description ("DejaVu Sans, Bold Oblique") fontconfig resolves.
  func testFontStylesThroughPango() throws {
    try check("font-styles", frames: [0])
    let image = try Self.render("font-styles", frame: 0)
    // Ink (darkness summed) of each line: bold > regular > extra light.
    let pixels = image.straightPixels
    func ink(_ line: Int) -> Int {
      var sum = 0
      for y in (2 * (12 + 36 * line))..<(2 * (40 + 36 * line)) {
        for x in 0..<image.width { sum += 255 - Int(pixels[(y * image.width + x) * 4]) }
      }
      return sum
    }
    let regular = ink(0)
    XCTAssertGreaterThan(ink(1), regular * 13 / 10)
    XCTAssertGreaterThan(ink(3), regular * 13 / 10)
    XCTAssertLessThan(ink(4), regular * 8 / 10)
  }

  // MARK: Effects (issue 33)

  /// Effects animated over frames 0–30, on a red and a green square:
  /// Gaussian blur (blurriness 0 to 16), Fast Box Blur (radius 0 to 6,
  /// three iterations), Tint (amount 0 to 100 %, blue to yellow), Tritone
  /// (blend with original 100 to 0 %: purple, rose, cream) and Fill
  /// (colour blue to orange, opacity 0.3 to 1).
  func testAnimatedEffects() throws {
    try check("effects-animated", frames: [0, 15, 30])
    let start = try Self.render("effects-animated", frame: 0)
    let end = try Self.render("effects-animated", frame: 30)
    // Blur: sharp edge at frame 0 (x 22 is white, 23 red), soft at 30.
    XCTAssertEqual(Self.pixel(start, 21, 40), [255, 255, 255, 255])
    XCTAssertLessThan(Self.pixel(end, 21, 40)[1], 230)
    // Fill at frame 30: orange at full opacity where the layer draws.
    XCTAssertEqual(Self.pixel(end, 440, 40), [255, 128, 0, 255])
    // Tint at frame 0 leaves red red; at 30 red is mapped by its luminance.
    XCTAssertEqual(Self.pixel(start, 230, 30), [230, 26, 26, 255])
    let l = 0.2126 * 0.9 + 0.7152 * 0.1 + 0.0722 * 0.1
    let tinted = [0.1 + l * 0.9, 0.1 + l * 0.8, 0.4 - l * 0.1].map { UInt8(($0 * 255).rounded()) }
    for (a, b) in zip(Self.pixel(end, 230, 30), tinted) { XCTAssertEqual(Double(a), Double(b), accuracy: 2) }
  }

  /// The Stroke effect along a mask (mode none: it does not mask), red,
  /// size 6, written on (end 0 % to 100 % over frames 0–30), in its three
  /// paint styles: over the blue square, alone (on transparent), and
  /// revealing the square through the stroke.
  func testStrokeEffectAlongAMask() throws {
    try check("stroke-effect", frames: [15, 30])
    let image = try Self.render("stroke-effect", frame: 30)
    // The circle's top (50, 20): red in all three; the square's middle
    // (50, 50): blue, white, white.
    for (i, middle) in [[51, 153, 230, 255], [255, 255, 255, 255], [255, 255, 255, 255]].enumerated() {
      XCTAssertEqual(Self.pixel(image, 100 * i + 50, 50), middle.map(UInt8.init), "style \(i + 1)")
    }
    XCTAssertEqual(Self.pixel(image, 50, 20), [230, 26, 51, 255])
    XCTAssertEqual(Self.pixel(image, 150, 20), [230, 26, 51, 255])
    // Revealing: the square's blue where the stroke passes.
    XCTAssertEqual(Self.pixel(image, 250, 20), [51, 153, 230, 255])
  }

  // MARK: Masks (issue 33)

  /// Every mask mode, each panel a white layer over black with an add mask
  /// (rect, opacity 80 %) and then a mask of the mode (ellipse, 60 %):
  /// add, subtract, intersect / lighten, darken, difference. The grey
  /// levels are After Effects' mask arithmetic (see `Builder.masks`).
  func testEveryMaskMode() throws {
    try check("mask-modes", frames: [0])
    let image = try Self.render("mask-modes", frame: 0)
    // (rect only, both, ellipse only) for each mode, as 0–1 values.
    let expected: [(String, [Double])] = [
      ("a", [0.8, 0.92, 0.6]), ("s", [0.8, 0.32, 0]), ("i", [0, 0.48, 0]),
      ("l", [0.8, 0.8, 0.6]), ("d", [0, 0.6, 0]), ("f", [0.8, 0.2, 0.6]),
    ]
    for (i, (mode, values)) in expected.enumerated() {
      let x0 = 100 * (i % 3)
      let y0 = 100 * (i / 3)
      for (x, v) in zip([20, 50, 80], values) {
        let p = Self.pixel(image, x0 + x, y0 + 50)
        XCTAssertEqual(Double(p[0]), v * 255, accuracy: 3, "mode \(mode) at x \(x)")
      }
    }
  }

  /// An animated mask expansion (−10 to 15, eased) grows the square mask
  /// (left) instead of keeping its first value; an animated feather (0 to
  /// 20) softens the disc's edge (right).
  func testAnimatedMaskExpansionAndFeather() throws {
    try check("mask-animated", frames: [0, 15, 30])
    // x 20 is outside the square at frame 0 (35…65) and inside at 30 (10…90).
    let first = Self.pixel(try Self.render("mask-animated", frame: 0), 20, 50)
    let last = Self.pixel(try Self.render("mask-animated", frame: 30), 20, 50)
    XCTAssertEqual(first, [0x20, 0x30, 0x60, 255])
    XCTAssertEqual(last, [255, 255, 255, 255])
    // The disc's edge (x 180): hard at frame 0, half way at frame 30.
    let hard = Self.pixel(try Self.render("mask-animated", frame: 0), 181, 50)
    let soft = Self.pixel(try Self.render("mask-animated", frame: 30), 179, 50)
    XCTAssertEqual(hard, [0x20, 0x30, 0x60, 255])
    XCTAssertGreaterThan(soft[0], 0x60)
    XCTAssertLessThan(soft[0], 0xd0)
  }

  // MARK: Bugs found on real files (issue 42)

  /// Skottie's `skottie-matte-blendmode` and `skottie-gradient-opacity`, in
  /// a document of our own. Left: a red solid in multiply mode through an
  /// alpha matte (a square) over green: its blend mode blends the matted
  /// red with the green, black inside the square (Lamina blended it inside
  /// the matte's group, with nothing: red). Right: a gradient whose two
  /// colour stops share 0.5 (green, then red) and whose opacity stops do
  /// too (0.4, then 1): a hard edge at the middle, green at 40 % left of
  /// it, opaque red right of it (Lamina kept one stop of each pair and
  /// blended across).
  func testMatteBlendModeAndHardGradientStops() throws {
    try check("matte-blend-hard-stops", frames: [0])
    let image = try Self.render("matte-blend-hard-stops", frame: 0)
    XCTAssertEqual(Self.pixel(image, 50, 50), [0, 0, 0, 255])
    XCTAssertEqual(Self.pixel(image, 10, 10), [0, 255, 0, 255])
    // Either side of the edge at x 150, one point away.
    let left = Self.pixel(image, 148, 50)
    let right = Self.pixel(image, 152, 50)
    XCTAssertEqual(Double(left[1]), 255, accuracy: 2, "\(left)")
    XCTAssertEqual(Double(left[3]), 0.4 * 255, accuracy: 3, "\(left)")
    for (value, expected) in zip(right, [255, 0, 0, 255]) {
      XCTAssertEqual(Double(value), Double(expected), accuracy: 2, "\(right)")
    }
  }

  static func render(_ name: String, frame: Double) throws -> RenderedImage {
    let renderer = try Self.renderer ?? Renderer()
    Self.renderer = renderer
    let a = try LottieAnimation(contentsOf: fixtures.appendingPathComponent("\(name).json"))
    return try renderer.render(
      layer: a.rootLayer, size: CGSize(width: a.width, height: a.height), scale: 2,
      time: a.time(ofFrame: frame))
  }

  /// The straight RGBA of the pixel under point (x, y) of an image rendered at scale 2.
  static func pixel(_ image: RenderedImage, _ x: Int, _ y: Int) -> [UInt8] {
    let i = ((2 * y + 1) * image.width + 2 * x + 1) * 4
    return Array(image.straightPixels[i..<i + 4])
  }
}
