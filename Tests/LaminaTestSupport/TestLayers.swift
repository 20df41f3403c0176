// Helpers the test targets share (a library target of the package that
// only test targets depend on).
import Foundation
import Lamina

/// A layer at `frame` filled with `color`, for tests that build trees.
public func layer(_ frame: CGRect, _ color: CGColor? = .black, name: String? = nil) -> CALayer {
  let layer = CALayer()
  layer.frame = frame
  layer.backgroundColor = color
  layer.name = name
  return layer
}

/// A root layer of `width`×`height` points at the canvas's origin.
public func root(_ width: CGFloat, _ height: CGFloat) -> CALayer {
  let root = CALayer()
  root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
  root.position = CGPoint(x: width / 2, y: height / 2)
  return root
}
