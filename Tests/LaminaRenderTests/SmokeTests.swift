import Foundation
import Lamina
import LaminaRender
import XCTest

final class SmokeTests: XCTestCase {
  func testSolidLayers() throws {
    let renderer = try Renderer()
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 80)
    root.position = CGPoint(x: 50, y: 40)
    let a = CALayer()
    a.frame = CGRect(x: 10, y: 10, width: 30, height: 20)
    a.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    root.addSublayer(a)
    let b = CALayer()
    b.frame = CGRect(x: 30, y: 20, width: 40, height: 40)
    b.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
    root.addSublayer(b)
    let image = try renderer.render(layer: root, size: CGSize(width: 100, height: 80), scale: 1, background: .white)
    XCTAssertEqual(image.width, 100)
    let p = image.pixel(15, 15)
    XCTAssertEqual(p.r, 255); XCTAssertEqual(p.g, 0); XCTAssertEqual(p.b, 0)
    let q = image.pixel(60, 50)
    XCTAssertEqual(Int(q.r), 128, accuracy: 1); XCTAssertEqual(Int(q.b), 255, accuracy: 1)
    let o = image.pixel(35, 25)  // red under half blue
    XCTAssertEqual(Int(o.r), 128, accuracy: 1); XCTAssertEqual(Int(o.b), 128, accuracy: 1)
    try image.writePNG(to: URL(fileURLWithPath: "/tmp/smoke.png"))
    print(renderer.counters)
  }
}
