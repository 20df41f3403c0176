import Lamina
import XCTest

/// A value type as iOS code writes it, storing Core Graphics objects: its
/// Equatable and Hashable are synthesized, as on Apple platforms.
private struct Swatch: Hashable {
  var color: CGColor
  var space: CGColorSpace
  var outline: CGPath
  var image: CGImage?
}

final class CoreGraphicsConveniencesTests: XCTestCase {
  func testCFTypesAreEquatableAndHashableAsCFEqualDefinesThem() throws {
    // Colors by components.
    let a = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    XCTAssertEqual(a, CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
    XCTAssertNotEqual(a, CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.5))
    // Color spaces by name.
    XCTAssertEqual(CGColorSpace(name: CGColorSpace.sRGB), CGColorSpaceCreateDeviceRGB())
    XCTAssertNotEqual(CGColorSpaceCreateDeviceGray(), CGColorSpaceCreateDeviceRGB())
    XCTAssertEqual(Set([CGColorSpaceCreateDeviceRGB(), CGColorSpaceCreateDeviceRGB()]).count, 1)
    // Paths by elements.
    let square = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
    XCTAssertEqual(square, CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil))
    XCTAssertNotEqual(
      square, CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil))
    // Images by identity: the same pixels in two images are two images.
    let pixels = [UInt8](repeating: 255, count: 4 * 4)
    let one = try XCTUnwrap(CGImage(width: 2, height: 2, rgba: pixels))
    let two = try XCTUnwrap(CGImage(width: 2, height: 2, rgba: pixels))
    XCTAssertEqual(one, one)
    XCTAssertNotEqual(one, two)
    XCTAssertEqual(Set([one, one, two]).count, 2)
    // Types that store them synthesize both.
    let swatch = Swatch(color: a, space: CGColorSpaceCreateDeviceRGB(), outline: square, image: one)
    var same = swatch
    same.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    XCTAssertEqual(swatch, same)
    XCTAssertEqual(swatch.hashValue, same.hashValue)
    same.image = two
    XCTAssertNotEqual(swatch, same)
    XCTAssertEqual(Set([swatch, same, swatch]).count, 2)
  }

  func testGeometryEqualTo() {
    XCTAssertTrue(CGPoint(x: 1, y: 2).equalTo(CGPoint(x: 1, y: 2)))
    XCTAssertFalse(CGPoint(x: 1, y: 2).equalTo(CGPoint(x: 2, y: 1)))
    XCTAssertTrue(CGSize(width: 3, height: 4).equalTo(CGSize(width: 3, height: 4)))
    XCTAssertFalse(CGSize(width: 3, height: 4).equalTo(CGSize(width: 4, height: 3)))
    XCTAssertTrue(
      CGRect(x: 0, y: 0, width: 5, height: 5).equalTo(CGRect(x: 0, y: 0, width: 5, height: 5)))
    // Core Graphics compares standardized rectangles.
    XCTAssertTrue(
      CGRect(x: 5, y: 5, width: -5, height: -5).equalTo(CGRect(x: 0, y: 0, width: 5, height: 5)))
    XCTAssertFalse(
      CGRect(x: 0, y: 0, width: 5, height: 5).equalTo(CGRect(x: 0, y: 0, width: 5, height: 6)))
  }

  func testCTFontCreateWithNameTakesACFString() {
    let font = CTFontCreateWithName("Helvetica" as CFString, 12, nil)
    XCTAssertEqual(CTFontCopyFamilyName(font), "Helvetica")
    XCTAssertEqual(CTFontGetSize(font), 12)
    let name: String = "DejaVu Sans"
    let other = CTFontCreateWithName(name as CFString, 9, nil)
    XCTAssertEqual(CTFontCopyFamilyName(other), "DejaVu Sans")
    // A plain string still works.
    XCTAssertEqual(CTFontGetSize(CTFontCreateWithName("Helvetica", 14, nil)), 14)
  }
}
