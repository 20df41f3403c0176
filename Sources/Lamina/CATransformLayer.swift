import Foundation

/// A layer that draws nothing of its own and keeps its sublayers in 3D:
/// they are not flattened into its plane, but sorted by depth together with
/// the sublayers of nested transform layers (a cube of six faces renders
/// correctly from any angle). Background, border, contents, shadow, mask and
/// `masksToBounds` are ignored; `opacity` multiplies each sublayer's opacity.
open class CATransformLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CATransformLayer.self }
  override package class func makeInstance() -> CALayer { CATransformLayer() }
}
