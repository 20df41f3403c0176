import Foundation
import Lamina
import LaminaLottie
import XCTest

final class ScratchTests: XCTestCase {
  func testScratch() throws {
    let a = try LottieAnimation(contentsOf: URL(fileURLWithPath: "/work/shared/lottie/conformance/data/properties/gradient-linear.json"))
    func find(_ l: CALayer) -> CAGradientLayer? {
      if let g = l as? CAGradientLayer { return g }
      for s in l.sublayers ?? [] { if let g = find(s) { return g } }
      return nil
    }
    let g = find(a.rootLayer)!
    print("model", g.colors!, g.locations!, g.startPoint, g.endPoint, g.bounds)
    let tree = PresentationTree(root: a.rootLayer)
    let root = tree.update(time: 0)
    let pg = find(root)!
    print("pres", pg.colors!, pg.locations!, pg.startPoint, pg.endPoint, pg.bounds)
    for k in g.animationKeys() ?? [] { let an = g.animation(forKey: k) as! CAKeyframeAnimation; print(k, an.beginTime, an.duration, an.keyTimes!, an.values!) }
  }
}
