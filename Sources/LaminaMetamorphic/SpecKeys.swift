/// What `spec/scene-format.md` (version 1) lets a scene say, as lists the
/// generator draws from and its coverage test checks: every key of every
/// layer class, every enumeration value, filter, blend mode and animation key.
package enum SpecKeys {
  /// The keys of every class (the spec's CALayer table).
  package static let layer = [
    "bounds", "position", "frame", "anchorPoint", "anchorPointZ", "zPosition", "transform",
    "sublayerTransform", "isHidden", "opacity", "backgroundColor", "cornerRadius",
    "maskedCorners", "borderWidth", "borderColor", "masksToBounds", "mask", "contents",
    "contentsGravity", "contentsRect", "contentsCenter", "contentsScale", "magnificationFilter",
    "minificationFilter", "isDoubleSided", "isGeometryFlipped", "shadowColor", "shadowOpacity",
    "shadowOffset", "shadowRadius", "shadowPath", "shouldRasterize", "rasterizationScale",
    "filters", "backgroundFilters", "compositingFilter", "name", "class", "sublayers",
    "animations",
  ]

  /// The keys each class has beyond CALayer's.
  package static let classes: [(name: String, keys: [String])] = [
    ("CALayer", []),
    ("CATransformLayer", []),
    ("CAGradientLayer", ["colors", "locations", "startPoint", "endPoint", "type"]),
    (
      "CAShapeLayer",
      [
        "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin",
        "miterLimit", "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
      ]
    ),
    (
      "CATextLayer",
      [
        "string", "font", "fontSize", "foregroundColor", "alignmentMode", "isWrapped",
        "truncationMode",
      ]
    ),
    (
      "CAReplicatorLayer",
      [
        "instanceCount", "instanceTransform", "instanceDelay", "instanceColor",
        "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
        "preservesDepth",
      ]
    ),
    ("CAScrollLayer", ["scrollMode"]),
    (
      "CAEmitterLayer",
      [
        "emitterPosition", "emitterSize", "emitterShape", "emitterMode", "renderMode",
        "birthRate", "lifetime", "seed", "emitterCells",
      ]
    ),
  ]

  package static let canvas = ["width", "height", "scale", "background"]

  package static let gravities = [
    "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft",
    "bottomRight", "resize", "resizeAspect", "resizeAspectFill",
  ]
  package static let contentsFilters = ["linear", "nearest", "trilinear"]
  package static let corners = ["minXMinY", "maxXMinY", "minXMaxY", "maxXMaxY"]
  package static let gradientTypes = ["axial", "radial", "conic"]
  package static let fillRules = ["nonZero", "evenOdd"]
  package static let lineCaps = ["butt", "round", "square"]
  package static let lineJoins = ["miter", "round", "bevel"]
  package static let alignmentModes = ["natural", "left", "right", "center", "justified"]
  package static let truncationModes = ["none", "start", "middle", "end"]
  package static let scrollModes = ["none", "vertically", "horizontally", "both"]
  package static let emitterShapes = ["point", "line", "rectangle", "cuboid", "circle", "sphere"]
  package static let emitterModes = ["points", "outline", "surface", "volume"]
  package static let renderModes = [
    "unordered", "oldestFirst", "oldestLast", "backToFront", "additive",
  ]

  /// Filters and their inputs.
  package static let filters: [(name: String, inputs: [String])] = [
    ("CIGaussianBlur", ["inputRadius"]),
    (
      "CIColorMatrix",
      ["inputRVector", "inputGVector", "inputBVector", "inputAVector", "inputBiasVector"]
    ),
    ("CIColorControls", ["inputSaturation", "inputBrightness", "inputContrast"]),
    ("CIHueAdjust", ["inputAngle"]),
    ("CIColorInvert", []),
    ("CISepiaTone", ["inputIntensity"]),
  ]

  /// The fifteen blend modes of `compositingFilter`.
  package static let blendModes = [
    "CIMultiplyBlendMode", "CIScreenBlendMode", "CIOverlayBlendMode", "CIDarkenBlendMode",
    "CILightenBlendMode", "CIColorDodgeBlendMode", "CIColorBurnBlendMode",
    "CIHardLightBlendMode", "CISoftLightBlendMode", "CIDifferenceBlendMode",
    "CIExclusionBlendMode", "CIHueBlendMode", "CISaturationBlendMode", "CIColorBlendMode",
    "CILuminosityBlendMode",
  ]

  package static let transformSteps = ["translate", "rotate", "scale", "perspective", "matrix"]

  package static let animationClasses = [
    "CABasicAnimation", "CAKeyframeAnimation", "CASpringAnimation",
  ]
  /// Keys every animation class has.
  package static let animationTiming = [
    "class", "keyPath", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
    "repeatDuration", "autoreverses", "fillMode", "isAdditive", "isCumulative", "timingFunction",
  ]
  package static let basicAnimation = ["fromValue", "toValue", "byValue"]
  package static let keyframeAnimation = [
    "values", "keyTimes", "timingFunctions", "calculationMode", "path", "rotationMode",
  ]
  package static let springAnimation = ["mass", "stiffness", "damping", "initialVelocity"]
  package static let fillModes = ["removed", "forwards", "backwards", "both"]
  package static let timingFunctions = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
  package static let calculationModes = ["linear", "discrete", "paced", "cubic", "cubicPaced"]
  package static let rotationModes = ["auto", "autoReverse"]

  /// The forms a color takes in a scene file.
  package static let colorForms = ["#rrggbb", "#rrggbbaa", "[r,g,b,a]", "null"]
}
