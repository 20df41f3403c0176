import Lamina
import LaminaDraw
import XCTest

/// CGContext's antialiasing switches as iOS drawing code calls them, in
/// `draw(in:)`: antialiasing is on while the context allows it and the
/// graphics state asks for it; the graphics state's switch is saved and
/// restored with it, the context's is not.
final class AntialiasSwitchTests: XCTestCase {
  override func setUp() { LaminaDraw.install() }

  /// Draws a disc: a shape whose edge crosses pixels at every angle.
  private final class DiscLayer: CALayer {
    var configure: (CGContext) -> Void = { _ in }
    override func draw(in ctx: CGContext) {
      configure(ctx)
      ctx.setFillColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
      ctx.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2))
    }
  }

  /// The alphas of a 20×20 disc layer drawn with `configure` first.
  private func alphas(_ configure: @escaping (CGContext) -> Void) throws -> [UInt8] {
    let layer = DiscLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
    layer.configure = configure
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    let image = try XCTUnwrap(layer.contents as? CGImage)
    return stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
  }

  private func partial(_ a: [UInt8]) -> Int { a.filter { $0 != 0 && $0 != 255 }.count }

  func testShouldAntialiasFalseDrawsHardEdges() throws {
    let smooth = try alphas { _ in }
    XCTAssertGreaterThan(partial(smooth), 20, "antialiased by default")
    let hard = try alphas { $0.setShouldAntialias(false) }
    XCTAssertEqual(partial(hard), 0)
    // The same disc: as many pixels covered, within the edge's pixels.
    let covered = hard.filter { $0 == 255 }.count
    XCTAssertEqual(Double(covered), Double.pi * 64, accuracy: 16)
    let back = try alphas { ctx in
      ctx.setShouldAntialias(false)
      ctx.setShouldAntialias(true)
    }
    XCTAssertEqual(back, smooth)
  }

  func testEffectiveAntialiasingIsAllowsAndShould() throws {
    let smooth = try alphas { _ in }
    let notAllowed = try alphas { $0.setAllowsAntialiasing(false) }
    XCTAssertEqual(partial(notAllowed), 0)
    // Asking for antialiasing does not override the context's refusal.
    let asked = try alphas { ctx in
      ctx.setAllowsAntialiasing(false)
      ctx.setShouldAntialias(true)
    }
    XCTAssertEqual(partial(asked), 0)
    let allowedAgain = try alphas { ctx in
      ctx.setAllowsAntialiasing(false)
      ctx.setAllowsAntialiasing(true)
    }
    XCTAssertEqual(allowedAgain, smooth)
  }

  func testShouldAntialiasIsSavedAndAllowsIsNot() throws {
    let smooth = try alphas { _ in }
    let restored = try alphas { ctx in
      ctx.setShouldAntialias(false)
      ctx.saveGState()
      ctx.setShouldAntialias(true)
      ctx.restoreGState()
    }
    XCTAssertEqual(partial(restored), 0, "the saved state's false comes back")
    let restoredOn = try alphas { ctx in
      ctx.saveGState()
      ctx.setShouldAntialias(false)
      ctx.restoreGState()
    }
    XCTAssertEqual(restoredOn, smooth)
    // Not part of the graphics state: a restore does not bring it back.
    let refusedInside = try alphas { ctx in
      ctx.saveGState()
      ctx.setAllowsAntialiasing(false)
      ctx.restoreGState()
    }
    XCTAssertEqual(partial(refusedInside), 0)
  }

  /// The font switches compile as Apple spells them and leave drawing alone.
  func testFontSwitchesAreAccepted() throws {
    let smooth = try alphas { _ in }
    let switched = try alphas { ctx in
      ctx.setAllowsFontSubpixelPositioning(true)
      ctx.setShouldSubpixelPositionFonts(false)
      ctx.setAllowsFontSubpixelQuantization(true)
      ctx.setShouldSubpixelQuantizeFonts(false)
      ctx.setAllowsFontSmoothing(false)
      ctx.setShouldSmoothFonts(false)
    }
    XCTAssertEqual(switched, smooth)
  }
}
