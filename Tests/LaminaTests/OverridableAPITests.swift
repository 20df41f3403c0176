import Lamina
import XCTest

// Every member Apple declares `open` on CALayer and its subclasses
// (QuartzCore as Swift on iOS sees it) is overridden below by a subclass in
// this module, as iOS code does. That the file compiles is half of the
// test; the other half calls each member through the base type and checks
// that the override ran. (`render(in:)` is Lamina's in LaminaRender, an
// extension, and is not overridable: docs/api-coverage.md.)

/// The names the overrides record, in the order of Apple's documentation.
let overriddenLayerMembers: [String] = [
  "init()", "init(layer:)", "init(coder:)", "presentation()", "model()",
  "defaultValue(forKey:)", "needsDisplay(forKey:)", "shouldArchiveValue(forKey:)",
  "bounds", "position", "zPosition", "anchorPoint", "anchorPointZ", "frame", "transform",
  "sublayerTransform", "affineTransform()", "setAffineTransform(_:)", "isHidden",
  "isDoubleSided", "isGeometryFlipped", "contentsAreFlipped()", "superlayer", "sublayers",
  "addSublayer(_:)", "removeFromSuperlayer()", "insertSublayer(_:at:)",
  "insertSublayer(_:below:)", "insertSublayer(_:above:)", "replaceSublayer(_:with:)",
  "mask", "masksToBounds", "convert(point:from:)", "convert(point:to:)",
  "convert(rect:from:)", "convert(rect:to:)", "convertTime(_:from:)", "convertTime(_:to:)",
  "hitTest(_:)", "contains(_:)", "contents", "contentsRect", "contentsCenter",
  "contentsGravity", "contentsScale", "contentsFormat", "minificationFilter",
  "magnificationFilter", "minificationFilterBias", "isOpaque", "display()", "draw(in:)",
  "setNeedsDisplay()", "setNeedsDisplay(_:)", "needsDisplay()", "displayIfNeeded()",
  "needsDisplayOnBoundsChange", "drawsAsynchronously", "edgeAntialiasingMask",
  "allowsEdgeAntialiasing", "backgroundColor", "cornerRadius", "maskedCorners", "cornerCurve",
  "cornerCurveExpansionFactor(_:)", "borderWidth", "borderColor", "opacity",
  "allowsGroupOpacity", "compositingFilter", "filters", "backgroundFilters", "shouldRasterize",
  "rasterizationScale", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius",
  "shadowPath", "preferredFrameSize()", "setNeedsLayout()", "needsLayout()",
  "layoutIfNeeded()", "layoutSublayers()", "defaultAction(forKey:)", "action(forKey:)",
  "actions", "add(_:forKey:)", "removeAllAnimations()", "removeAnimation(forKey:)",
  "animationKeys()", "animation(forKey:)", "name", "delegate", "style", "scroll(_:)",
  "scrollRectToVisible(_:)", "visibleRect", "wantsExtendedDynamicRangeContent",
  "preferredDynamicRange", "toneMapMode", "contentsHeadroom", "wantsDynamicContentScaling",
  "layoutManager", "autoresizingMask", "resizeSublayers(withOldSize:)",
  "resize(withOldSuperlayerSize:)", "beginTime", "duration", "speed", "timeOffset",
  "repeatCount", "repeatDuration", "autoreverses", "fillMode", "value(forKey:)",
  "setValue(_:forKey:)", "value(forKeyPath:)", "setValue(_:forKeyPath:)",
]

/// What the overrides recorded.
nonisolated(unsafe) var overrideLog: [String] = []
func logged(_ name: String) { overrideLog.append(name) }

/// A subclass overriding every open member of CALayer.
class EveryMemberLayer: CALayer {
  override init() {
    super.init()
    logged("init()")
  }
  override init(layer: Any) {
    super.init(layer: layer)
    logged("init(layer:)")
  }
  required init?(coder: NSCoder) {
    super.init(coder: coder)
    logged("init(coder:)")
  }
  override func presentation() -> Self? {
    logged("presentation()")
    return super.presentation()
  }
  override func model() -> Self {
    logged("model()")
    return super.model()
  }
  override class func defaultValue(forKey key: String) -> Any? {
    logged("defaultValue(forKey:)")
    return super.defaultValue(forKey: key)
  }
  override class func needsDisplay(forKey key: String) -> Bool {
    logged("needsDisplay(forKey:)")
    return super.needsDisplay(forKey: key)
  }
  override func shouldArchiveValue(forKey key: String) -> Bool {
    logged("shouldArchiveValue(forKey:)")
    return super.shouldArchiveValue(forKey: key)
  }
  override var bounds: CGRect { didSet { logged("bounds") } }
  override var position: CGPoint { didSet { logged("position") } }
  override var zPosition: CGFloat { didSet { logged("zPosition") } }
  override var anchorPoint: CGPoint { didSet { logged("anchorPoint") } }
  override var anchorPointZ: CGFloat { didSet { logged("anchorPointZ") } }
  override var frame: CGRect { didSet { logged("frame") } }
  override var transform: CATransform3D { didSet { logged("transform") } }
  override var sublayerTransform: CATransform3D { didSet { logged("sublayerTransform") } }
  override func affineTransform() -> CGAffineTransform {
    logged("affineTransform()")
    return super.affineTransform()
  }
  override func setAffineTransform(_ m: CGAffineTransform) {
    logged("setAffineTransform(_:)")
    super.setAffineTransform(m)
  }
  override var isHidden: Bool { didSet { logged("isHidden") } }
  override var isDoubleSided: Bool { didSet { logged("isDoubleSided") } }
  override var isGeometryFlipped: Bool { didSet { logged("isGeometryFlipped") } }
  override func contentsAreFlipped() -> Bool {
    logged("contentsAreFlipped()")
    return super.contentsAreFlipped()
  }
  override var superlayer: CALayer? {
    logged("superlayer")
    return super.superlayer
  }
  override var sublayers: [CALayer]? { didSet { logged("sublayers") } }
  override func addSublayer(_ layer: CALayer) {
    logged("addSublayer(_:)")
    super.addSublayer(layer)
  }
  override func removeFromSuperlayer() {
    logged("removeFromSuperlayer()")
    super.removeFromSuperlayer()
  }
  override func insertSublayer(_ layer: CALayer, at idx: UInt32) {
    logged("insertSublayer(_:at:)")
    super.insertSublayer(layer, at: idx)
  }
  override func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
    logged("insertSublayer(_:below:)")
    super.insertSublayer(layer, below: sibling)
  }
  override func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
    logged("insertSublayer(_:above:)")
    super.insertSublayer(layer, above: sibling)
  }
  override func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
    logged("replaceSublayer(_:with:)")
    super.replaceSublayer(oldLayer, with: newLayer)
  }
  override var mask: CALayer? { didSet { logged("mask") } }
  override var masksToBounds: Bool { didSet { logged("masksToBounds") } }
  override func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint {
    logged("convert(point:from:)")
    return super.convert(p, from: l)
  }
  override func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint {
    logged("convert(point:to:)")
    return super.convert(p, to: l)
  }
  override func convert(_ r: CGRect, from l: CALayer?) -> CGRect {
    logged("convert(rect:from:)")
    return super.convert(r, from: l)
  }
  override func convert(_ r: CGRect, to l: CALayer?) -> CGRect {
    logged("convert(rect:to:)")
    return super.convert(r, to: l)
  }
  override func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
    logged("convertTime(_:from:)")
    return super.convertTime(t, from: l)
  }
  override func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
    logged("convertTime(_:to:)")
    return super.convertTime(t, to: l)
  }
  override func hitTest(_ p: CGPoint) -> CALayer? {
    logged("hitTest(_:)")
    return super.hitTest(p)
  }
  override func contains(_ p: CGPoint) -> Bool {
    logged("contains(_:)")
    return super.contains(p)
  }
  override var contents: Any? { didSet { logged("contents") } }
  override var contentsRect: CGRect { didSet { logged("contentsRect") } }
  override var contentsCenter: CGRect { didSet { logged("contentsCenter") } }
  override var contentsGravity: CALayerContentsGravity { didSet { logged("contentsGravity") } }
  override var contentsScale: CGFloat { didSet { logged("contentsScale") } }
  override var contentsFormat: CALayerContentsFormat { didSet { logged("contentsFormat") } }
  override var minificationFilter: CALayerContentsFilter {
    didSet { logged("minificationFilter") }
  }
  override var magnificationFilter: CALayerContentsFilter {
    didSet { logged("magnificationFilter") }
  }
  override var minificationFilterBias: Float { didSet { logged("minificationFilterBias") } }
  override var isOpaque: Bool { didSet { logged("isOpaque") } }
  override func display() {
    logged("display()")
    super.display()
  }
  override func draw(in ctx: CGContext) {
    logged("draw(in:)")
    super.draw(in: ctx)
  }
  override func setNeedsDisplay() {
    logged("setNeedsDisplay()")
    super.setNeedsDisplay()
  }
  override func setNeedsDisplay(_ r: CGRect) {
    logged("setNeedsDisplay(_:)")
    super.setNeedsDisplay(r)
  }
  override func needsDisplay() -> Bool {
    logged("needsDisplay()")
    return super.needsDisplay()
  }
  override func displayIfNeeded() {
    logged("displayIfNeeded()")
    super.displayIfNeeded()
  }
  override var needsDisplayOnBoundsChange: Bool { didSet { logged("needsDisplayOnBoundsChange") } }
  override var drawsAsynchronously: Bool { didSet { logged("drawsAsynchronously") } }
  override var edgeAntialiasingMask: CAEdgeAntialiasingMask {
    didSet { logged("edgeAntialiasingMask") }
  }
  override var allowsEdgeAntialiasing: Bool { didSet { logged("allowsEdgeAntialiasing") } }
  override var backgroundColor: CGColor? { didSet { logged("backgroundColor") } }
  override var cornerRadius: CGFloat { didSet { logged("cornerRadius") } }
  override var maskedCorners: CACornerMask { didSet { logged("maskedCorners") } }
  override var cornerCurve: CALayerCornerCurve { didSet { logged("cornerCurve") } }
  override class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
    logged("cornerCurveExpansionFactor(_:)")
    return super.cornerCurveExpansionFactor(curve)
  }
  override var borderWidth: CGFloat { didSet { logged("borderWidth") } }
  override var borderColor: CGColor? { didSet { logged("borderColor") } }
  override var opacity: Float { didSet { logged("opacity") } }
  override var allowsGroupOpacity: Bool { didSet { logged("allowsGroupOpacity") } }
  override var compositingFilter: Any? { didSet { logged("compositingFilter") } }
  override var filters: [Any]? { didSet { logged("filters") } }
  override var backgroundFilters: [Any]? { didSet { logged("backgroundFilters") } }
  override var shouldRasterize: Bool { didSet { logged("shouldRasterize") } }
  override var rasterizationScale: CGFloat { didSet { logged("rasterizationScale") } }
  override var shadowColor: CGColor? { didSet { logged("shadowColor") } }
  override var shadowOpacity: Float { didSet { logged("shadowOpacity") } }
  override var shadowOffset: CGSize { didSet { logged("shadowOffset") } }
  override var shadowRadius: CGFloat { didSet { logged("shadowRadius") } }
  override var shadowPath: CGPath? { didSet { logged("shadowPath") } }
  override func preferredFrameSize() -> CGSize {
    logged("preferredFrameSize()")
    return super.preferredFrameSize()
  }
  override func setNeedsLayout() {
    logged("setNeedsLayout()")
    super.setNeedsLayout()
  }
  override func needsLayout() -> Bool {
    logged("needsLayout()")
    return super.needsLayout()
  }
  override func layoutIfNeeded() {
    logged("layoutIfNeeded()")
    super.layoutIfNeeded()
  }
  override func layoutSublayers() {
    logged("layoutSublayers()")
    super.layoutSublayers()
  }
  override class func defaultAction(forKey event: String) -> CAAction? {
    logged("defaultAction(forKey:)")
    return super.defaultAction(forKey: event)
  }
  override func action(forKey event: String) -> CAAction? {
    logged("action(forKey:)")
    return super.action(forKey: event)
  }
  override var actions: [String: CAAction]? { didSet { logged("actions") } }
  override func add(_ anim: CAAnimation, forKey key: String?) {
    logged("add(_:forKey:)")
    super.add(anim, forKey: key)
  }
  override func removeAllAnimations() {
    logged("removeAllAnimations()")
    super.removeAllAnimations()
  }
  override func removeAnimation(forKey key: String) {
    logged("removeAnimation(forKey:)")
    super.removeAnimation(forKey: key)
  }
  override func animationKeys() -> [String]? {
    logged("animationKeys()")
    return super.animationKeys()
  }
  override func animation(forKey key: String) -> CAAnimation? {
    logged("animation(forKey:)")
    return super.animation(forKey: key)
  }
  override var name: String? { didSet { logged("name") } }
  override var delegate: CALayerDelegate? { didSet { logged("delegate") } }
  override var style: [AnyHashable: Any]? { didSet { logged("style") } }
  override func scroll(_ p: CGPoint) {
    logged("scroll(_:)")
    super.scroll(p)
  }
  override func scrollRectToVisible(_ r: CGRect) {
    logged("scrollRectToVisible(_:)")
    super.scrollRectToVisible(r)
  }
  override var visibleRect: CGRect {
    logged("visibleRect")
    return super.visibleRect
  }
  override var wantsExtendedDynamicRangeContent: Bool {
    didSet { logged("wantsExtendedDynamicRangeContent") }
  }
  override var preferredDynamicRange: CADynamicRange { didSet { logged("preferredDynamicRange") } }
  override var toneMapMode: CAToneMapMode { didSet { logged("toneMapMode") } }
  override var contentsHeadroom: CGFloat { didSet { logged("contentsHeadroom") } }
  override var wantsDynamicContentScaling: Bool {
    didSet { logged("wantsDynamicContentScaling") }
  }
  override var layoutManager: CALayoutManager? { didSet { logged("layoutManager") } }
  override var autoresizingMask: CAAutoresizingMask { didSet { logged("autoresizingMask") } }
  override func resizeSublayers(withOldSize size: CGSize) {
    logged("resizeSublayers(withOldSize:)")
    super.resizeSublayers(withOldSize: size)
  }
  override func resize(withOldSuperlayerSize size: CGSize) {
    logged("resize(withOldSuperlayerSize:)")
    super.resize(withOldSuperlayerSize: size)
  }
  override var beginTime: CFTimeInterval { didSet { logged("beginTime") } }
  override var duration: CFTimeInterval { didSet { logged("duration") } }
  override var speed: Float { didSet { logged("speed") } }
  override var timeOffset: CFTimeInterval { didSet { logged("timeOffset") } }
  override var repeatCount: Float { didSet { logged("repeatCount") } }
  override var repeatDuration: CFTimeInterval { didSet { logged("repeatDuration") } }
  override var autoreverses: Bool { didSet { logged("autoreverses") } }
  override var fillMode: CAMediaTimingFillMode { didSet { logged("fillMode") } }
  override func value(forKey key: String) -> Any? {
    logged("value(forKey:)")
    return super.value(forKey: key)
  }
  override func setValue(_ value: Any?, forKey key: String) {
    logged("setValue(_:forKey:)")
    super.setValue(value, forKey: key)
  }
  override func value(forKeyPath keyPath: String) -> Any? {
    logged("value(forKeyPath:)")
    return super.value(forKeyPath: keyPath)
  }
  override func setValue(_ value: Any?, forKeyPath keyPath: String) {
    logged("setValue(_:forKeyPath:)")
    super.setValue(value, forKeyPath: keyPath)
  }
}

// The subclasses' own open members, overridden the same way.

final class EveryShapeMember: CAShapeLayer {
  static let members = [
    "path", "fillColor", "fillRule", "strokeColor", "strokeStart", "strokeEnd", "lineWidth",
    "miterLimit", "lineCap", "lineJoin", "lineDashPhase", "lineDashPattern",
  ]
  override var path: CGPath? { didSet { logged("path") } }
  override var fillColor: CGColor? { didSet { logged("fillColor") } }
  override var fillRule: CAShapeLayerFillRule { didSet { logged("fillRule") } }
  override var strokeColor: CGColor? { didSet { logged("strokeColor") } }
  override var strokeStart: CGFloat { didSet { logged("strokeStart") } }
  override var strokeEnd: CGFloat { didSet { logged("strokeEnd") } }
  override var lineWidth: CGFloat { didSet { logged("lineWidth") } }
  override var miterLimit: CGFloat { didSet { logged("miterLimit") } }
  override var lineCap: CAShapeLayerLineCap { didSet { logged("lineCap") } }
  override var lineJoin: CAShapeLayerLineJoin { didSet { logged("lineJoin") } }
  override var lineDashPhase: CGFloat { didSet { logged("lineDashPhase") } }
  override var lineDashPattern: [NSNumber]? { didSet { logged("lineDashPattern") } }
}

final class EveryGradientMember: CAGradientLayer {
  static let members = ["colors", "locations", "startPoint", "endPoint", "type"]
  override var colors: [Any]? { didSet { logged("colors") } }
  override var locations: [NSNumber]? { didSet { logged("locations") } }
  override var startPoint: CGPoint { didSet { logged("startPoint") } }
  override var endPoint: CGPoint { didSet { logged("endPoint") } }
  override var type: CAGradientLayerType { didSet { logged("type") } }
}

final class EveryTextMember: CATextLayer {
  static let members = [
    "string", "font", "fontSize", "foregroundColor", "isWrapped", "alignmentMode",
    "truncationMode", "allowsFontSubpixelQuantization",
  ]
  override var string: Any? { didSet { logged("string") } }
  override var font: Any? { didSet { logged("font") } }
  override var fontSize: CGFloat { didSet { logged("fontSize") } }
  override var foregroundColor: CGColor? { didSet { logged("foregroundColor") } }
  override var isWrapped: Bool { didSet { logged("isWrapped") } }
  override var alignmentMode: CATextLayerAlignmentMode { didSet { logged("alignmentMode") } }
  override var truncationMode: CATextLayerTruncationMode { didSet { logged("truncationMode") } }
  override var allowsFontSubpixelQuantization: Bool {
    didSet { logged("allowsFontSubpixelQuantization") }
  }
}

final class EveryReplicatorMember: CAReplicatorLayer {
  static let members = [
    "instanceCount", "instanceDelay", "instanceTransform", "preservesDepth", "instanceColor",
    "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
  ]
  override var instanceCount: Int { didSet { logged("instanceCount") } }
  override var instanceDelay: CFTimeInterval { didSet { logged("instanceDelay") } }
  override var instanceTransform: CATransform3D { didSet { logged("instanceTransform") } }
  override var preservesDepth: Bool { didSet { logged("preservesDepth") } }
  override var instanceColor: CGColor? { didSet { logged("instanceColor") } }
  override var instanceRedOffset: Float { didSet { logged("instanceRedOffset") } }
  override var instanceGreenOffset: Float { didSet { logged("instanceGreenOffset") } }
  override var instanceBlueOffset: Float { didSet { logged("instanceBlueOffset") } }
  override var instanceAlphaOffset: Float { didSet { logged("instanceAlphaOffset") } }
}

final class EveryScrollMember: CAScrollLayer {
  static let members = ["scrollMode", "scroll(to:point)", "scroll(to:rect)"]
  override var scrollMode: CAScrollLayerScrollMode { didSet { logged("scrollMode") } }
  override func scroll(to p: CGPoint) {
    logged("scroll(to:point)")
    super.scroll(to: p)
  }
  override func scroll(to r: CGRect) {
    logged("scroll(to:rect)")
    super.scroll(to: r)
  }
}

final class EveryEmitterMember: CAEmitterLayer {
  static let members = [
    "emitterCells", "birthRate", "lifetime", "emitterPosition", "emitterZPosition",
    "emitterSize", "emitterDepth", "emitterShape", "emitterMode", "renderMode",
    "preservesDepth", "velocity", "scale", "spin", "seed",
  ]
  override var emitterCells: [CAEmitterCell]? { didSet { logged("emitterCells") } }
  override var birthRate: Float { didSet { logged("birthRate") } }
  override var lifetime: Float { didSet { logged("lifetime") } }
  override var emitterPosition: CGPoint { didSet { logged("emitterPosition") } }
  override var emitterZPosition: CGFloat { didSet { logged("emitterZPosition") } }
  override var emitterSize: CGSize { didSet { logged("emitterSize") } }
  override var emitterDepth: CGFloat { didSet { logged("emitterDepth") } }
  override var emitterShape: CAEmitterLayerEmitterShape { didSet { logged("emitterShape") } }
  override var emitterMode: CAEmitterLayerEmitterMode { didSet { logged("emitterMode") } }
  override var renderMode: CAEmitterLayerRenderMode { didSet { logged("renderMode") } }
  override var preservesDepth: Bool { didSet { logged("preservesDepth") } }
  override var velocity: Float { didSet { logged("velocity") } }
  override var scale: Float { didSet { logged("scale") } }
  override var spin: Float { didSet { logged("spin") } }
  override var seed: UInt32 { didSet { logged("seed") } }
}

final class EveryTiledMember: CATiledLayer {
  static let members = ["fadeDuration()", "levelsOfDetail", "levelsOfDetailBias", "tileSize"]
  override class func fadeDuration() -> CFTimeInterval {
    logged("fadeDuration()")
    return super.fadeDuration()
  }
  override var levelsOfDetail: Int { didSet { logged("levelsOfDetail") } }
  override var levelsOfDetailBias: Int { didSet { logged("levelsOfDetailBias") } }
  override var tileSize: CGSize { didSet { logged("tileSize") } }
}

/// CATransformLayer adds no members; its hit testing is overridable as CALayer's.
final class EveryTransformMember: CATransformLayer {
  override func hitTest(_ p: CGPoint) -> CALayer? {
    logged("hitTest(_:)")
    return super.hitTest(p)
  }
}

final class OverridableAPITests: XCTestCase {
  override func setUp() {
    super.setUp()
    overrideLog = []
  }

  /// Runs `body` and checks that it reached the override recording `name`.
  func expect(
    _ name: String, _ body: () -> Void, file: StaticString = #filePath, line: UInt = #line
  ) {
    overrideLog = []
    body()
    XCTAssertTrue(
      overrideLog.contains(name), "\(name) was not dispatched to the override", file: file,
      line: line)
    checked.insert(name)
  }
  var checked: Set<String> = []

  func testEveryOpenMemberOfCALayerDispatchesToTheOverride() {
    let made: CALayer = EveryMemberLayer()
    XCTAssertTrue(overrideLog.contains("init()"))
    checked.insert("init()")
    let layer: CALayer = made
    let other = CALayer()
    let parent: CALayer = EveryMemberLayer()
    let ctx = CGContext(width: 4, height: 4)
    let color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    expect("init(layer:)") { _ = EveryMemberLayer(layer: layer) }
    expect("init(coder:)") { _ = EveryMemberLayer(coder: NSCoder()) }
    expect("presentation()") { _ = layer.presentation() }
    expect("model()") { _ = layer.model() }
    let cls: CALayer.Type = EveryMemberLayer.self
    expect("defaultValue(forKey:)") { _ = cls.defaultValue(forKey: "opacity") }
    expect("needsDisplay(forKey:)") { _ = cls.needsDisplay(forKey: "opacity") }
    expect("shouldArchiveValue(forKey:)") { _ = layer.shouldArchiveValue(forKey: "opacity") }
    expect("bounds") { layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 30) }
    expect("position") { layer.position = CGPoint(x: 20, y: 15) }
    expect("zPosition") { layer.zPosition = 1 }
    expect("anchorPoint") { layer.anchorPoint = CGPoint(x: 0.5, y: 0.5) }
    expect("anchorPointZ") { layer.anchorPointZ = 0 }
    expect("frame") { layer.frame = CGRect(x: 0, y: 0, width: 40, height: 30) }
    expect("transform") { layer.transform = CATransform3DIdentity }
    expect("sublayerTransform") { layer.sublayerTransform = CATransform3DIdentity }
    expect("affineTransform()") { _ = layer.affineTransform() }
    expect("setAffineTransform(_:)") { layer.setAffineTransform(.identity) }
    expect("isHidden") { layer.isHidden = false }
    expect("isDoubleSided") { layer.isDoubleSided = true }
    expect("isGeometryFlipped") { layer.isGeometryFlipped = false }
    expect("contentsAreFlipped()") { _ = layer.contentsAreFlipped() }
    expect("superlayer") { _ = layer.superlayer }
    expect("sublayers") { layer.sublayers = [CALayer()] }
    expect("addSublayer(_:)") { layer.addSublayer(other) }
    expect("insertSublayer(_:at:)") { layer.insertSublayer(CALayer(), at: 0) }
    expect("insertSublayer(_:below:)") { layer.insertSublayer(CALayer(), below: other) }
    expect("insertSublayer(_:above:)") { layer.insertSublayer(CALayer(), above: other) }
    expect("replaceSublayer(_:with:)") { layer.replaceSublayer(other, with: CALayer()) }
    parent.addSublayer(layer)
    expect("removeFromSuperlayer()") { layer.removeFromSuperlayer() }
    XCTAssertNil(layer.superlayer)
    expect("mask") { layer.mask = CALayer() }
    expect("masksToBounds") { layer.masksToBounds = true }
    expect("convert(point:from:)") { _ = layer.convert(CGPoint.zero, from: nil) }
    expect("convert(point:to:)") { _ = layer.convert(CGPoint.zero, to: nil) }
    expect("convert(rect:from:)") { _ = layer.convert(CGRect.zero, from: nil) }
    expect("convert(rect:to:)") { _ = layer.convert(CGRect.zero, to: nil) }
    expect("convertTime(_:from:)") { _ = layer.convertTime(0, from: nil) }
    expect("convertTime(_:to:)") { _ = layer.convertTime(0, to: nil) }
    expect("hitTest(_:)") { _ = layer.hitTest(CGPoint(x: 5, y: 5)) }
    expect("contains(_:)") { _ = layer.contains(CGPoint(x: 5, y: 5)) }
    expect("contents") { layer.contents = nil }
    expect("contentsRect") { layer.contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) }
    expect("contentsCenter") { layer.contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1) }
    expect("contentsGravity") { layer.contentsGravity = .center }
    expect("contentsScale") { layer.contentsScale = 2 }
    expect("contentsFormat") { layer.contentsFormat = .RGBA8Uint }
    expect("minificationFilter") { layer.minificationFilter = .nearest }
    expect("magnificationFilter") { layer.magnificationFilter = .nearest }
    expect("minificationFilterBias") { layer.minificationFilterBias = 0 }
    expect("isOpaque") { layer.isOpaque = false }
    expect("display()") { layer.display() }
    expect("draw(in:)") { layer.draw(in: ctx) }
    expect("setNeedsDisplay()") { layer.setNeedsDisplay() }
    expect("setNeedsDisplay(_:)") { layer.setNeedsDisplay(.zero) }
    expect("needsDisplay()") { _ = layer.needsDisplay() }
    expect("displayIfNeeded()") { layer.displayIfNeeded() }
    expect("needsDisplayOnBoundsChange") { layer.needsDisplayOnBoundsChange = true }
    expect("drawsAsynchronously") { layer.drawsAsynchronously = false }
    expect("edgeAntialiasingMask") { layer.edgeAntialiasingMask = .all }
    expect("allowsEdgeAntialiasing") { layer.allowsEdgeAntialiasing = true }
    expect("backgroundColor") { layer.backgroundColor = color }
    expect("cornerRadius") { layer.cornerRadius = 4 }
    expect("maskedCorners") { layer.maskedCorners = .all }
    expect("cornerCurve") { layer.cornerCurve = .continuous }
    expect("cornerCurveExpansionFactor(_:)") { _ = cls.cornerCurveExpansionFactor(.continuous) }
    expect("borderWidth") { layer.borderWidth = 1 }
    expect("borderColor") { layer.borderColor = color }
    expect("opacity") { layer.opacity = 0.5 }
    expect("allowsGroupOpacity") { layer.allowsGroupOpacity = true }
    expect("compositingFilter") { layer.compositingFilter = "multiplyBlendMode" }
    expect("filters") { layer.filters = [] }
    expect("backgroundFilters") { layer.backgroundFilters = [] }
    expect("shouldRasterize") { layer.shouldRasterize = false }
    expect("rasterizationScale") { layer.rasterizationScale = 1 }
    expect("shadowColor") { layer.shadowColor = color }
    expect("shadowOpacity") { layer.shadowOpacity = 0 }
    expect("shadowOffset") { layer.shadowOffset = .zero }
    expect("shadowRadius") { layer.shadowRadius = 2 }
    expect("shadowPath") { layer.shadowPath = nil }
    expect("preferredFrameSize()") { _ = layer.preferredFrameSize() }
    expect("setNeedsLayout()") { layer.setNeedsLayout() }
    expect("needsLayout()") { _ = layer.needsLayout() }
    expect("layoutIfNeeded()") { layer.layoutIfNeeded() }
    expect("layoutSublayers()") {
      layer.setNeedsLayout()
      layer.layoutIfNeeded()
    }
    expect("defaultAction(forKey:)") { _ = cls.defaultAction(forKey: "opacity") }
    expect("action(forKey:)") { _ = layer.action(forKey: "opacity") }
    expect("actions") { layer.actions = [:] }
    expect("add(_:forKey:)") { layer.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade") }
    expect("animationKeys()") { _ = layer.animationKeys() }
    expect("animation(forKey:)") { _ = layer.animation(forKey: "fade") }
    expect("removeAnimation(forKey:)") { layer.removeAnimation(forKey: "fade") }
    expect("removeAllAnimations()") { layer.removeAllAnimations() }
    expect("name") { layer.name = "every" }
    expect("delegate") { layer.delegate = nil }
    expect("style") { layer.style = [:] }
    expect("scroll(_:)") { layer.scroll(.zero) }
    expect("scrollRectToVisible(_:)") { layer.scrollRectToVisible(.zero) }
    expect("visibleRect") { _ = layer.visibleRect }
    expect("wantsExtendedDynamicRangeContent") { layer.wantsExtendedDynamicRangeContent = false }
    expect("preferredDynamicRange") { layer.preferredDynamicRange = .standard }
    expect("toneMapMode") { layer.toneMapMode = .automatic }
    expect("contentsHeadroom") { layer.contentsHeadroom = 0 }
    expect("wantsDynamicContentScaling") { layer.wantsDynamicContentScaling = false }
    expect("layoutManager") { layer.layoutManager = nil }
    expect("autoresizingMask") { layer.autoresizingMask = [] }
    expect("resizeSublayers(withOldSize:)") { layer.resizeSublayers(withOldSize: .zero) }
    expect("resize(withOldSuperlayerSize:)") { layer.resize(withOldSuperlayerSize: .zero) }
    expect("beginTime") { layer.beginTime = 0 }
    expect("duration") { layer.duration = 0 }
    expect("speed") { layer.speed = 1 }
    expect("timeOffset") { layer.timeOffset = 0 }
    expect("repeatCount") { layer.repeatCount = 0 }
    expect("repeatDuration") { layer.repeatDuration = 0 }
    expect("autoreverses") { layer.autoreverses = false }
    expect("fillMode") { layer.fillMode = .removed }
    expect("value(forKey:)") { _ = layer.value(forKey: "opacity") }
    expect("setValue(_:forKey:)") { layer.setValue(0.5, forKey: "opacity") }
    expect("value(forKeyPath:)") { _ = layer.value(forKeyPath: "position.x") }
    expect("setValue(_:forKeyPath:)") { layer.setValue(3, forKeyPath: "position.x") }
    // The list is Apple's, every name in it was checked, and nothing else was.
    XCTAssertEqual(checked, Set(overriddenLayerMembers))
    XCTAssertEqual(overriddenLayerMembers.count, Set(overriddenLayerMembers).count)
  }

  func testFrameObserverFiresForEveryWayTheFrameIsSet() {
    final class Tracked: CALayer {
      var frames: [CGRect] = []
      override var frame: CGRect { didSet { frames.append(frame) } }
    }
    let tracked = Tracked()
    let layer: CALayer = tracked
    layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
    layer.setValue(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)), forKey: "frame")
    XCTAssertEqual(
      tracked.frames,
      [
        CGRect(x: 10, y: 20, width: 30, height: 40), CGRect(x: 1, y: 2, width: 3, height: 4),
      ])
    XCTAssertEqual(layer.position, CGPoint(x: 2.5, y: 4))
  }

  func testSublayerOverridesSeeLaminasOwnCalls() {
    // Lamina's own paths go through the open members: `sublayers =` adds
    // with addSublayer, insert(below:/above:) and replace insert at an index.
    let layer = EveryMemberLayer()
    overrideLog = []
    layer.sublayers = [CALayer(), CALayer()]
    XCTAssertEqual(overrideLog.filter { $0 == "addSublayer(_:)" }.count, 2)
    overrideLog = []
    layer.addSublayer(CALayer())
    XCTAssertEqual(
      overrideLog.filter { $0.hasPrefix("insertSublayer") || $0.hasPrefix("addSub") },
      [
        "addSublayer(_:)", "insertSublayer(_:at:)",
      ])
  }

  func testSubclassMembersDispatchToTheOverrides() {
    func check(_ layer: CALayer, _ members: [String], _ set: (CALayer) -> Void) {
      overrideLog = []
      set(layer)
      XCTAssertEqual(Set(overrideLog).intersection(members), Set(members), "\(type(of: layer))")
    }
    check(EveryShapeMember(), EveryShapeMember.members) {
      let s = $0 as! CAShapeLayer
      s.path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
      s.fillColor = nil
      s.fillRule = .evenOdd
      s.strokeColor = nil
      s.strokeStart = 0.1
      s.strokeEnd = 0.9
      s.lineWidth = 2
      s.miterLimit = 4
      s.lineCap = .round
      s.lineJoin = .bevel
      s.lineDashPhase = 1
      s.lineDashPattern = [2, 3]
    }
    check(EveryGradientMember(), EveryGradientMember.members) {
      let g = $0 as! CAGradientLayer
      g.colors = [CGColor.black, CGColor.white]
      g.locations = [0, 1]
      g.startPoint = .zero
      g.endPoint = CGPoint(x: 1, y: 1)
      g.type = .radial
    }
    check(EveryTextMember(), EveryTextMember.members) {
      let t = $0 as! CATextLayer
      t.string = "text"
      t.font = nil
      t.fontSize = 12
      t.foregroundColor = .black
      t.isWrapped = true
      t.alignmentMode = .center
      t.truncationMode = .end
      t.allowsFontSubpixelQuantization = true
    }
    check(EveryReplicatorMember(), EveryReplicatorMember.members) {
      let r = $0 as! CAReplicatorLayer
      r.instanceCount = 3
      r.instanceDelay = 0.1
      r.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
      r.preservesDepth = true
      r.instanceColor = .white
      r.instanceRedOffset = -0.1
      r.instanceGreenOffset = -0.1
      r.instanceBlueOffset = -0.1
      r.instanceAlphaOffset = -0.1
    }
    check(EveryScrollMember(), EveryScrollMember.members) {
      let s = $0 as! CAScrollLayer
      s.scrollMode = .vertically
      s.scroll(to: CGPoint(x: 0, y: 5))
      s.scroll(to: CGRect(x: 0, y: 0, width: 1, height: 1))
    }
    check(EveryEmitterMember(), EveryEmitterMember.members) {
      let e = $0 as! CAEmitterLayer
      e.emitterCells = []
      e.birthRate = 2
      e.lifetime = 2
      e.emitterPosition = .zero
      e.emitterZPosition = 0
      e.emitterSize = .zero
      e.emitterDepth = 0
      e.emitterShape = .circle
      e.emitterMode = .outline
      e.renderMode = .additive
      e.preservesDepth = true
      e.velocity = 2
      e.scale = 2
      e.spin = 2
      e.seed = 7
    }
    check(EveryTiledMember(), EveryTiledMember.members) {
      let t = $0 as! CATiledLayer
      _ = type(of: t).fadeDuration()
      t.levelsOfDetail = 2
      t.levelsOfDetailBias = 1
      t.tileSize = CGSize(width: 64, height: 64)
    }
    check(EveryTransformMember(), ["hitTest(_:)"]) { _ = $0.hitTest(.zero) }
  }
}
