import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A layer drawn by its own `draw(in:)`, as iOS subclasses draw.
private final class Dot: CALayer {
  override init() {
    super.init()
    needsDisplayOnBoundsChange = true
  }
  override init(layer: Any) { super.init(layer: layer) }
  required init?(coder: NSCoder) { super.init(coder: coder) }

  override func draw(in ctx: CGContext) {
    ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    ctx.fillEllipse(in: bounds)
  }
}

/// `Renderer.render(layer:size:scale:background:time:)`: a Swift tree at a
/// moment, as the command renders a scene at `--time`.
final class RendererTimeTests: XCTestCase {
  func testRunningAnimationsAndDelaysAtTheGivenTime() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
    root.position = CGPoint(x: 50, y: 10)
    let square = CALayer()
    square.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    square.position = CGPoint(x: 5, y: 5)
    square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let slide = CABasicAnimation(keyPath: "position.x")
    slide.fromValue = 5
    slide.toValue = 85
    slide.duration = 1
    square.add(slide, forKey: "slide")
    root.addSublayer(square)
    // A replicator whose second instance starts half a second later.
    let replicator = CAReplicatorLayer()
    replicator.frame = CGRect(x: 0, y: 10, width: 100, height: 10)
    replicator.instanceCount = 2
    replicator.instanceDelay = 0.5
    replicator.instanceTransform = CATransform3DMakeTranslation(0, 0, 0)
    let bar = CALayer()
    bar.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
    bar.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    let barSlide = CABasicAnimation(keyPath: "position.x")
    barSlide.fromValue = 5
    barSlide.toValue = 85
    barSlide.duration = 1
    barSlide.fillMode = .both
    bar.add(barSlide, forKey: "slide")
    replicator.addSublayer(bar)
    root.addSublayer(replicator)

    let renderer = try RenderTestSupport.renderer()
    let atStart = try renderer.render(layer: root, size: root.bounds.size, time: 0)
    XCTAssertEqual(atStart.pixel(5, 5).r, 255)
    XCTAssertEqual(atStart.pixel(45, 5).a, 0)
    let half = try renderer.render(layer: root, size: root.bounds.size, time: 0.5)
    XCTAssertEqual(half.pixel(45, 5).r, 255, "the square is half way at t = 0.5")
    XCTAssertEqual(half.pixel(5, 5).a, 0)
    // Instance 0 is half way; instance 1 (0.5 s late) is at its start.
    XCTAssertEqual(half.pixel(45, 15).g, 255)
    XCTAssertEqual(half.pixel(5, 15).g, 255)
    // Without a time, the model tree as it is.
    let model = try renderer.render(layer: root, size: root.bounds.size)
    XCTAssertEqual(model.pixel(5, 5).r, 255)
  }

  func testEmittersFollowTheTime() throws {
    let emitter = CAEmitterLayer()
    emitter.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
    emitter.position = CGPoint(x: 30, y: 30)
    emitter.emitterPosition = CGPoint(x: 30, y: 30)
    let cell = CAEmitterCell()
    cell.birthRate = 50
    cell.lifetime = 10
    cell.velocity = 20
    cell.emissionRange = 2 * .pi
    cell.contents = CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16))
    emitter.emitterCells = [cell]
    let renderer = try RenderTestSupport.renderer()
    func covered(at time: Double) throws -> Int {
      let image = try renderer.render(layer: emitter, size: emitter.bounds.size, time: time)
      return stride(from: 3, to: image.premultipliedPixels.count, by: 4).filter {
        image.premultipliedPixels[$0] > 0
      }.count
    }
    // At time 0 at most the first particle shows, at the emitter's point;
    // a second later fifty have spread up to 20 points out.
    XCTAssertLessThan(try covered(at: 0), 10)
    XCTAssertGreaterThan(try covered(at: 1), 100)
  }

  func testASubclassDrawsThroughThePresentationTree() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    root.position = CGPoint(x: 20, y: 20)
    let dot = Dot()
    dot.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
    dot.setNeedsDisplay()
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = 1
    dot.add(fade, forKey: "fade")
    root.addSublayer(dot)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, time: 0.5)
    let center = image.pixel(20, 20)
    XCTAssertEqual(center.b, 255, "the subclass's draw(in:)")
    XCTAssertEqual(Int(center.a), 128, accuracy: 2, "at half opacity")
    XCTAssertEqual(image.pixel(1, 1).a, 0, "outside the circle")
  }
}
