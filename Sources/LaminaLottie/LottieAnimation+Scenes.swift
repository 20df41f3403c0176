import Foundation
import Lamina
import LaminaScene

/// The animation as a player shows it: looping over its frames, or fitted
/// into a view of another size. Each takes the animation's `rootLayer` into
/// a new tree: make one scene of an animation, not several.
extension LottieAnimation {
  /// The tree whose time loops over `ip..op`: at scene time t it shows
  /// frame `ip + (t mod duration) · fr` (frame `ip` again at every multiple
  /// of the duration). What `lamina show` plays.
  public func makeLoopingScene() -> Scene {
    let url = makeScene().url
    let loop = CALayer()
    loop.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    loop.anchorPoint = .zero
    loop.position = .zero
    loop.duration = duration
    loop.repeatCount = .infinity
    loop.addSublayer(rootLayer)
    return Scene(
      canvas: Canvas(width: width, height: height), root: loop, images: [:], url: url)
  }

  /// The animation fitted into a canvas of `width` × `height` points as a
  /// player view shows it: scaled by `scale` to the largest size that fits
  /// (aspect kept) and centred, its top-left corner at (`x`, `y`).
  public func makeScene(fittingWidth width: Int, height: Int) -> (
    scene: Scene, scale: Double, x: Double, y: Double
  ) {
    let k = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
    let x = (Double(width) - Double(self.width) * k) / 2
    let y = (Double(height) - Double(self.height) * k) / 2
    let url = makeScene().url
    let fitted = CALayer()
    fitted.bounds = CGRect(x: 0, y: 0, width: self.width, height: self.height)
    fitted.anchorPoint = .zero
    fitted.position = CGPoint(x: x, y: y)
    fitted.transform = CATransform3DMakeScale(CGFloat(k), CGFloat(k), 1)
    fitted.addSublayer(rootLayer)
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.anchorPoint = .zero
    root.position = .zero
    root.addSublayer(fitted)
    let canvas = Canvas(width: CGFloat(width), height: CGFloat(height))
    return (Scene(canvas: canvas, root: root, images: [:], url: url), k, x, y)
  }
}
