import Foundation

/// A layer whose sublayers share its 3D space instead of being flattened.
open class CATransformLayer: CALayer {}
