import Foundation

/// Receives an animation's start and stop.
public protocol CAAnimationDelegate: AnyObject {
  func animationDidStart(_ anim: CAAnimation)
  func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
  public func animationDidStart(_ anim: CAAnimation) {}
  public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}
