import Foundation
import XCTest

@testable import Lamina

final class ScrollingTests: XCTestCase {
  func makeTree() -> (CAScrollLayer, CALayer, CALayer) {
    let scroller = CAScrollLayer()
    scroller.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    scroller.position = CGPoint(x: 50, y: 25)
    let content = CALayer()
    content.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
    let item = CALayer()
    item.frame = CGRect(x: 250, y: 120, width: 40, height: 20)
    content.addSublayer(item)
    scroller.addSublayer(content)
    return (scroller, content, item)
  }

  func testScrollLayerMasksToBoundsByDefault() {
    XCTAssertTrue(CAScrollLayer().masksToBounds)
  }

  func testScrollModeLimitsTheAxes() {
    let (scroller, _, _) = makeTree()
    scroller.scrollMode = .vertically
    scroller.scroll(to: CGPoint(x: 30, y: 40))
    XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 0, y: 40))
    scroller.scrollMode = .none
    scroller.scroll(to: CGPoint(x: 90, y: 90))
    XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 0, y: 40))
  }

  func testScrollRectToVisibleFromADeepSublayer() {
    let (scroller, _, item) = makeTree()
    item.scrollRectToVisible(item.bounds)
    // The item spans x 250…290, y 120…140: scrolled just enough.
    XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 190, y: 90))
    XCTAssertEqual(item.visibleRect, item.bounds)
  }

  func testScrollPointPutsItAtTheOrigin() {
    let (scroller, _, item) = makeTree()
    item.scroll(CGPoint(x: 10, y: 5))
    XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 260, y: 125))
  }

  func testVisibleRect() {
    let (scroller, content, item) = makeTree()
    XCTAssertEqual(content.visibleRect, CGRect(x: 0, y: 0, width: 100, height: 50))
    XCTAssertEqual(item.visibleRect.size, .zero)
    scroller.scroll(to: CGPoint(x: 270, y: 100))
    XCTAssertEqual(item.visibleRect, CGRect(x: 20, y: 0, width: 20, height: 20))
    XCTAssertEqual(CALayer().visibleRect, .zero)
  }
}
