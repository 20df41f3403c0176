import Foundation

/// The object Core Animation draws: a rectangle with a background, contents,
/// border, shadow and sublayers, placed in its superlayer by `position`,
/// `anchorPoint`, `transform` and `zPosition`.
///
/// A layer holds values only; the renderer derives everything GPU-side.
///
/// ```swift
/// let card = CALayer()
/// card.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
/// card.position = CGPoint(x: 160, y: 100)
/// card.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)
/// root.addSublayer(card)
/// ```
open class CALayer: NSObject {
  // Stored properties are `@exclusivity(unchecked)`: frame building and
  // presentation updates read them for every layer of every frame, and the
  // run-time exclusivity check costs several times the read itself (the
  // compiler's static checks stay).

  // MARK: Geometry

  /// The layer's own coordinate space; its origin shifts where sublayers appear.
  @exclusivity(unchecked) open var bounds: CGRect = .zero {
    didSet {
      didChange(.bounds, oldValue)
      // A new size needs a new layout (and, when asked, a new display), as in Core Animation.
      if bounds.size != oldValue.size {
        setNeedsLayout()
        if needsDisplayOnBoundsChange { setNeedsDisplay() }
        if layoutManager == nil, storedSublayers.contains(where: { !$0.autoresizingMask.isEmpty }) {
          resizeSublayers(withOldSize: oldValue.size)
        }
      }
    }
  }
  /// How the layer resizes when its superlayer's bounds change size (Core
  /// Animation on macOS; see CALayer+Autoresizing.swift). None by default.
  open var autoresizingMask: CAAutoresizingMask = [] {
    didSet { valuesVersion &+= 1 }
  }
  /// Lays out the sublayers instead of `layoutSublayers()`'s default.
  open var layoutManager: CALayoutManager? {
    didSet { valuesVersion &+= 1 }
  }
  /// Where the anchor point sits, in the superlayer's bounds space.
  @exclusivity(unchecked) open var position: CGPoint = .zero {
    didSet { didChange(.position, oldValue) }
  }
  /// The position's z.
  @exclusivity(unchecked) open var zPosition: CGFloat = 0 {
    didSet { didChange(.zPosition, oldValue) }
  }
  /// Unit point of the bounds that `position` pins and transforms pivot about.
  @exclusivity(unchecked) open var anchorPoint = CGPoint(x: 0.5, y: 0.5) {
    didSet { didChange(.anchorPoint, oldValue) }
  }
  /// The anchor point's z.
  @exclusivity(unchecked) open var anchorPointZ: CGFloat = 0 {
    didSet { didChange(.anchorPointZ, oldValue) }
  }
  /// Applied about the anchor point.
  @exclusivity(unchecked) open var transform: CATransform3D = CATransform3DIdentity {
    didSet { didChange(.transform, oldValue) }
  }
  /// Applied to the sublayers about this layer's anchor point (perspective lives here).
  @exclusivity(unchecked) open var sublayerTransform: CATransform3D = CATransform3DIdentity {
    didSet { didChange(.sublayerTransform, oldValue) }
  }
  /// Flips the y axis of the sublayers' coordinate space.
  @exclusivity(unchecked) open var isGeometryFlipped = false {
    didSet { valuesVersion &+= 1 }
  }
  /// When false, the layer is not drawn while its back faces the viewer.
  @exclusivity(unchecked) open var isDoubleSided = true {
    didSet { didChange(.isDoubleSided, oldValue) }
  }

  // MARK: Appearance

  /// Hides the layer and its subtree.
  @exclusivity(unchecked) open var isHidden = false {
    didSet { didChange(.isHidden, oldValue) }
  }
  /// Group opacity of the layer and its subtree, 0…1.
  @exclusivity(unchecked) open var opacity: Float = 1 {
    didSet {
      // Stamps the change as one of opacity alone (see CALayer+Changes.swift).
      changeIsOpacity = true
      didChange(.opacity, oldValue)
      changeIsOpacity = false
    }
  }
  /// Filled behind the contents, clipped to the rounded bounds.
  @exclusivity(unchecked) open var backgroundColor: CGColor? {
    didSet { didChange(.backgroundColor, oldValue) }
  }
  /// Radius of the rounded corners listed in `maskedCorners`.
  @exclusivity(unchecked) open var cornerRadius: CGFloat = 0 {
    didSet { didChange(.cornerRadius, oldValue) }
  }
  /// The corners `cornerRadius` rounds.
  @exclusivity(unchecked) open var maskedCorners: CACornerMask = .all {
    didSet { valuesVersion &+= 1 }
  }
  /// Width of the border, drawn inward from the bounds.
  @exclusivity(unchecked) open var borderWidth: CGFloat = 0 {
    didSet { didChange(.borderWidth, oldValue) }
  }
  /// Color of the border.
  @exclusivity(unchecked) open var borderColor: CGColor? = .black {
    didSet { didChange(.borderColor, oldValue) }
  }
  /// Clips contents and sublayers to the rounded bounds.
  @exclusivity(unchecked) open var masksToBounds = false {
    didSet { didChange(.masksToBounds, oldValue) }
  }
  /// A layer whose alpha multiplies this layer's rendering.
  @exclusivity(unchecked) open var mask: CALayer? {
    didSet {
      guard mask !== oldValue else { return }
      if oldValue?.maskOwner === self { oldValue?.maskOwner = nil }
      // A layer becoming a mask leaves its superlayer, or the layer it
      // masked, as in Core Animation; its `superlayer` is then this layer.
      mask?.removeFromSuperlayer()
      mask?.maskOwner = self
      if let mask, mask.displayPending || mask.subtreeNeedsDisplay {
        mask.markAncestorsForDisplay()
      }
      noteChange()
    }
  }
  /// How `mask` lets the rendering through: by alpha (the default, Core
  /// Animation's), luminance, or either inverted (Lamina extension;
  /// CALayer+MaskMode.swift).
  @exclusivity(unchecked) open var maskMode: CALayerMaskMode = .alpha {
    didSet { didChange(.maskMode, oldValue) }
  }
  /// The contents image (a `CGImage`), or nil.
  @exclusivity(unchecked) open var contents: Any? {
    didSet { didChange(.contents, oldValue) }
  }
  /// How the contents image is placed in the bounds.
  @exclusivity(unchecked) open var contentsGravity: CALayerContentsGravity = .resize {
    didSet { valuesVersion &+= 1 }
  }
  /// Unit rect of the contents image that is shown.
  @exclusivity(unchecked) open var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) {
    didSet { didChange(.contentsRect, oldValue) }
  }
  /// Unit rect of the contents image that stretches (nine-slice).
  @exclusivity(unchecked) open var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1) {
    didSet { didChange(.contentsCenter, oldValue) }
  }
  /// Pixels per point of the contents image.
  @exclusivity(unchecked) open var contentsScale: CGFloat = 1 {
    didSet {
      valuesVersion &+= 1
      if redisplaysOnChange && type(of: self).needsDisplay(forKey: LayerKey.contentsScale.rawValue)
      {
        setNeedsDisplay()
      }
    }
  }
  /// Sampling when the contents are drawn larger than their pixels.
  @exclusivity(unchecked) open var magnificationFilter: CALayerContentsFilter = .linear {
    didSet { valuesVersion &+= 1 }
  }
  /// Sampling when the contents are drawn smaller than their pixels.
  @exclusivity(unchecked) open var minificationFilter: CALayerContentsFilter = .linear {
    didSet { valuesVersion &+= 1 }
  }
  /// Level-of-detail bias for trilinear minification.
  @exclusivity(unchecked) open var minificationFilterBias: Float = 0 {
    didSet { valuesVersion &+= 1 }
  }

  // MARK: Shadow

  @exclusivity(unchecked) open var shadowColor: CGColor? = .black {
    didSet { didChange(.shadowColor, oldValue) }
  }
  @exclusivity(unchecked) open var shadowOpacity: Float = 0 {
    didSet { didChange(.shadowOpacity, oldValue) }
  }
  @exclusivity(unchecked) open var shadowOffset = CGSize(width: 0, height: -3) {
    didSet { didChange(.shadowOffset, oldValue) }
  }
  @exclusivity(unchecked) open var shadowRadius: CGFloat = 3 {
    didSet { didChange(.shadowRadius, oldValue) }
  }
  @exclusivity(unchecked) open var shadowPath: CGPath? {
    didSet { didChange(.shadowPath, oldValue) }
  }

  // MARK: Rendering hints and filters

  @exclusivity(unchecked) open var shouldRasterize = false {
    didSet { valuesVersion &+= 1 }
  }
  @exclusivity(unchecked) open var rasterizationScale: CGFloat = 1 {
    didSet { valuesVersion &+= 1 }
  }
  /// Filters applied to the layer's whole rendering (`CIFilter` values).
  @exclusivity(unchecked) open var filters: [Any]? {
    didSet { didChange(.filters, oldValue) }
  }
  /// Filters applied to what lies behind the layer.
  @exclusivity(unchecked) open var backgroundFilters: [Any]? {
    didSet { didChange(.backgroundFilters, oldValue) }
  }
  /// How the layer combines with what is behind it (a blend mode name or `CIFilter`).
  @exclusivity(unchecked) open var compositingFilter: Any? {
    didSet { didChange(.compositingFilter, oldValue) }
  }

  // MARK: Identity and tree

  /// Free text; also how hit testing and errors name the layer.
  @exclusivity(unchecked) open var name: String? {
    didSet { valuesVersion &+= 1 }
  }
  /// Custom actions by key (`NSNull()` disables one).
  @exclusivity(unchecked) open var actions: [String: CAAction]? {
    didSet { valuesVersion &+= 1 }
  }
  /// Default values consulted before `defaultValue(forKey:)`.
  @exclusivity(unchecked) open var style: [AnyHashable: Any]? {
    didSet { valuesVersion &+= 1 }
  }
  /// The object that provides actions, layout and drawing for this layer.
  @exclusivity(unchecked) open weak var delegate: CALayerDelegate? {
    didSet { valuesVersion &+= 1 }
  }

  // MARK: Edges and corners

  /// Whether the layer's edges may be antialiased (`edgeAntialiasingMask`).
  /// On iOS edges are aliased unless this is set; Lamina antialiases every
  /// edge, as the scene format promises, and keeps the value.
  open var allowsEdgeAntialiasing = false {
    didSet { valuesVersion &+= 1 }
  }
  /// Which edges are antialiased when `allowsEdgeAntialiasing` is set (all by default).
  open var edgeAntialiasingMask: CAEdgeAntialiasingMask = .all {
    didSet { valuesVersion &+= 1 }
  }
  /// Whether `opacity` composites the layer and its sublayers as one group
  /// (true, iOS 7's default). Lamina always composites a group.
  open var allowsGroupOpacity = true {
    didSet { valuesVersion &+= 1 }
  }
  /// The curve of rounded corners. Lamina draws `.continuous` corners as
  /// circular arcs of `cornerRadius`.
  open var cornerCurve: CALayerCornerCurve = .circular {
    didSet { valuesVersion &+= 1 }
  }
  /// Extended-range content (HDR). Lamina's output is 8-bit sRGB: these
  /// are kept as given and draw as standard range.
  open var wantsExtendedDynamicRangeContent = false {
    didSet { valuesVersion &+= 1 }
  }
  open var preferredDynamicRange: CADynamicRange = .automatic {
    didSet { valuesVersion &+= 1 }
  }
  open var toneMapMode: CAToneMapMode = .automatic {
    didSet { valuesVersion &+= 1 }
  }
  open var contentsHeadroom: CGFloat = 0 {
    didSet { valuesVersion &+= 1 }
  }
  /// Whether drawn contents may be redrawn at the scale they are shown at
  /// (a hint: Lamina draws shape and text layers at their shown scale anyway).
  open var wantsDynamicContentScaling = false {
    didSet { valuesVersion &+= 1 }
  }
  /// A hint that drawing may happen on a background thread (Lamina draws
  /// when the frame is built; the value is kept).
  open var drawsAsynchronously = false {
    didSet { valuesVersion &+= 1 }
  }
  /// The pixel format of the backing store `draw(in:)` fills; Lamina's
  /// backing stores are 8-bit RGBA whatever it says.
  open var contentsFormat: CALayerContentsFormat = .RGBA8Uint {
    didSet { valuesVersion &+= 1 }
  }

  // MARK: Drawing (see CALayer+Display.swift)

  /// Redraw the contents when the bounds' size changes.
  @exclusivity(unchecked) open var needsDisplayOnBoundsChange = false {
    didSet { valuesVersion &+= 1 }
  }
  /// A hint that the layer's drawing fills its bounds opaquely.
  @exclusivity(unchecked) open var isOpaque = false {
    didSet { valuesVersion &+= 1 }
  }
  /// Set when a commit laid the layer out but could not display it (no
  /// drawing backend yet) while the layer was not committed: its display,
  /// when it comes, is of a layer new to that commit, so what it sets runs
  /// no action (see `CATransaction.commitPhases()`).
  @exclusivity(unchecked) var displayDeferredWhileNew = false
  /// Set by `setNeedsDisplay()`, cleared by `displayIfNeeded()`.
  @exclusivity(unchecked) var displayPending = false {
    didSet {
      if displayPending {
        noteChange()
        if !oldValue { noteInvalidated() }
        openTransaction()
        if modelLayer == nil { markAncestorsForDisplay() }
      }
    }
  }
  /// Whether the class may answer `needsDisplay(forKey:)` with true (any
  /// class but Lamina's own, which draw nothing by key, and text layer
  /// subclasses): changes then ask it.
  lazy var redisplaysOnChange: Bool = {
    let cls = type(of: self)
    return cls != cls.laminaClass
  }()

  /// Sets the contents. The default: a delegate's `display(_:)` wins;
  /// otherwise a backing store of `bounds × contentsScale` pixels is drawn
  /// by `draw(in:)` and becomes the contents. Subclasses override it to set
  /// `contents` directly.
  open func display() { defaultDisplay() }

  /// Draws the contents into `ctx` (bounds space, top-left origin); the
  /// default asks the delegate's `draw(_:in:)`. Subclasses override it.
  open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

  /// The superlayer: the layer this one is a sublayer of, or, for a mask,
  /// the layer it masks (as in Core Animation); nil for a root layer.
  open var superlayer: CALayer? { storedSuperlayer ?? maskOwner }
  /// The layer this one is a sublayer of (not the layer it masks).
  @exclusivity(unchecked) weak var storedSuperlayer: CALayer?
  /// The layer this one masks, when it is set as another layer's `mask`.
  @exclusivity(unchecked) public internal(set) weak var maskOwner: CALayer?
  @exclusivity(unchecked) var storedSublayers: [CALayer] = [] {
    didSet {
      noteChange()
      openTransaction()
    }
  }
  /// On a presentation layer: the transition being shown, if any.
  @exclusivity(unchecked) package var transitionState: TransitionState? {
    didSet { if oldValue != nil || transitionState != nil { noteChange() } }
  }
  /// Set by `setNeedsLayout()`; cleared when `layoutSublayers()` runs.
  @exclusivity(unchecked) var needsLayoutFlag = false
  /// Some layer below this one needs layout.
  @exclusivity(unchecked) var subtreeNeedsLayout = false
  /// Some layer below this one may need display (see `displayTreeIfNeeded()`).
  @exclusivity(unchecked) var subtreeNeedsDisplay = false
  /// Values set for keys that are not properties of the class.
  @exclusivity(unchecked) var attributes: [String: Any] = [:]
  /// Attached animations in insertion order (see `add(_:forKey:)`).
  @exclusivity(unchecked) var storedAnimations: [(key: String, animation: CAAnimation)] = [] {
    didSet {
      animationsVersion &+= 1
      noteChange()
      openTransaction()
    }
  }
  /// Changes whenever the attached animations do (presentation caches key on it).
  @exclusivity(unchecked) var animationsVersion = 0
  /// The layer's `CAMediaTiming` values (see CALayer+Timing.swift).
  @exclusivity(unchecked) var timing = LayerTiming() {
    didSet { valuesVersion &+= 1 }
  }
  /// Changes whenever a value of the layer does (presentation copies skip
  /// copying values that did not change).
  @exclusivity(unchecked) var valuesVersion = 0 {
    didSet { noteChange() }
  }
  /// The tick of `LayerChangeClock` at which this layer, a layer below it
  /// (sublayers, mask, theirs) or the sublayer list last changed: what
  /// retained frame building and presentation trees compare with the tick
  /// they last derived at (see CALayer+Changes.swift).
  @exclusivity(unchecked) package internal(set) var changeStamp: UInt64 = 0
  /// The tick at which a value of this layer other than `opacity`, or its
  /// sublayer list or mask, last changed (its own drawing, not its
  /// sublayers': they have their own).
  @exclusivity(unchecked) package internal(set) var contentStamp: UInt64 = 0
  /// Set while `opacity` reports its change.
  @exclusivity(unchecked) var changeIsOpacity = false
  /// While set, changes are not stamped (a presentation tree undoing and
  /// redoing animations, which stamps the layer itself when the values
  /// end up different).
  @exclusivity(unchecked) var mutesChanges = false
  /// The transaction generation the layer was made in: it runs actions once
  /// a transaction has committed since (see CATransaction). `.max` for
  /// presentation layers, which never do.
  @exclusivity(unchecked) var createdGeneration = CATransaction.generation
  /// The value shown before the change being acted on, for actions.
  @exclusivity(unchecked) var pendingPreviousValue: Any?
  /// For a presentation layer, the model layer it shows.
  @exclusivity(unchecked) var modelLayer: CALayer?
  /// A number no other layer of the process has had or will have (it
  /// counts up from 1): what caches across frames key a layer by, since a
  /// new layer can take a freed layer's address (`ObjectIdentifier`).
  /// Presentation copies have their own; caches key by the model's.
  package let serial = Serials.next()

  /// A layer with Core Animation's default values. Subclasses override it
  /// as on iOS (`override init() { super.init(); … }`).
  public override init() {
    super.init()
    applyClassDefaults()
  }

  /// A copy of `layer`'s values (not its sublayers), as Core Animation makes
  /// for presentation layers. Subclasses override it to copy their own
  /// properties (`override init(layer: Any) { super.init(layer: layer); … }`).
  ///
  /// Lamina makes presentation copies with it for classes that adopt
  /// `PresentationCopyable` (Swift cannot call an initializer that is not
  /// `required` through a metatype); other subclasses defined outside
  /// Lamina get copies of the Lamina class they derive from (see
  /// docs/api-coverage.md).
  public init(layer: Any) {
    super.init()
    applyClassDefaults()
    if let other = layer as? CALayer { copyValues(from: other) }
  }

  /// A layer decoded from an archive. Lamina archives no layers: this makes
  /// a layer with the default values, so that subclasses written for iOS
  /// (`required init?(coder: NSCoder)`) compile and may call it.
  public required init?(coder: NSCoder) {
    super.init()
    applyClassDefaults()
  }

  /// The Lamina class this class is or derives from: what presentation
  /// copies and class prototypes are made of. Each Lamina layer class
  /// overrides it and `makeInstance()`.
  package class var laminaClass: CALayer.Type { CALayer.self }

  /// A new instance of `laminaClass` with its default values.
  package class func makeInstance() -> CALayer { CALayer() }

  /// The sublayers, back to front. Setting replaces them all.
  open var sublayers: [CALayer]? {
    get { storedSublayers.isEmpty ? nil : storedSublayers }
    set {
      for layer in storedSublayers { layer.storedSuperlayer = nil }
      storedSublayers = []
      for layer in newValue ?? [] { addSublayer(layer) }
    }
  }

  /// Copies every value of `other` into this layer (not sublayers, mask or
  /// superlayer). Subclasses that add properties override and call super.
  open func copyValues(from other: CALayer) {
    bounds = other.bounds
    position = other.position
    zPosition = other.zPosition
    anchorPoint = other.anchorPoint
    anchorPointZ = other.anchorPointZ
    transform = other.transform
    sublayerTransform = other.sublayerTransform
    isGeometryFlipped = other.isGeometryFlipped
    isDoubleSided = other.isDoubleSided
    isHidden = other.isHidden
    opacity = other.opacity
    backgroundColor = other.backgroundColor
    cornerRadius = other.cornerRadius
    maskedCorners = other.maskedCorners
    borderWidth = other.borderWidth
    borderColor = other.borderColor
    masksToBounds = other.masksToBounds
    maskMode = other.maskMode
    contents = other.contents
    contentsGravity = other.contentsGravity
    contentsRect = other.contentsRect
    contentsCenter = other.contentsCenter
    contentsScale = other.contentsScale
    magnificationFilter = other.magnificationFilter
    minificationFilter = other.minificationFilter
    minificationFilterBias = other.minificationFilterBias
    shadowColor = other.shadowColor
    shadowOpacity = other.shadowOpacity
    shadowOffset = other.shadowOffset
    shadowRadius = other.shadowRadius
    shadowPath = other.shadowPath
    shouldRasterize = other.shouldRasterize
    rasterizationScale = other.rasterizationScale
    filters = other.filters
    backgroundFilters = other.backgroundFilters
    compositingFilter = other.compositingFilter
    name = other.name
    actions = other.actions
    style = other.style
    delegate = other.delegate
    attributes = other.attributes
    timing = other.timing
    needsDisplayOnBoundsChange = other.needsDisplayOnBoundsChange
    isOpaque = other.isOpaque
    allowsEdgeAntialiasing = other.allowsEdgeAntialiasing
    edgeAntialiasingMask = other.edgeAntialiasingMask
    allowsGroupOpacity = other.allowsGroupOpacity
    cornerCurve = other.cornerCurve
    drawsAsynchronously = other.drawsAsynchronously
    contentsFormat = other.contentsFormat
    wantsExtendedDynamicRangeContent = other.wantsExtendedDynamicRangeContent
    preferredDynamicRange = other.preferredDynamicRange
    toneMapMode = other.toneMapMode
    contentsHeadroom = other.contentsHeadroom
    wantsDynamicContentScaling = other.wantsDynamicContentScaling
    autoresizingMask = other.autoresizingMask
    layoutManager = other.layoutManager
  }

  // MARK: Key-value coding (see CALayer+KeyValueCoding.swift)

  /// The descriptions of this class's properties (LayerProperty.swift);
  /// subclasses append theirs.
  class var properties: [LayerProperty] { CALayer.layerProperties }

  /// The accessors of this class's keys: CALayer's, the media timing keys,
  /// then the subclasses' (read from `properties`).
  class var accessors: [PropertyAccessor] {
    let own = CALayer.layerProperties.count
    let all = properties
    return all[..<own].map(\.accessor) + CALayer.timingAccessors + all[own...].map(\.accessor)
  }

  /// The value for `key`: a property, a value stored for a key the class
  /// does not have, or else `defaultValue(forKey:)`.
  open func value(forKey key: String) -> Any? { valueImpl(forKey: key) }

  /// Sets the property for `key`, converting numbers (Double, Int, Float,
  /// CGFloat, Bool, NSNumber), enumeration strings and geometry; a key the
  /// class does not have is stored and read back by `value(forKey:)`. A value
  /// that cannot be converted to the property's type is ignored.
  open func setValue(_ value: Any?, forKey key: String) { setValueImpl(value, forKey: key) }

  /// The default value of `key` for this class, or nil. Subclasses override
  /// it to change their initial property values, as in Core Animation:
  ///
  /// ```swift
  /// class Tile: CALayer {
  ///   override class func defaultValue(forKey key: String) -> Any? {
  ///     key == "cornerRadius" ? 8.0 : super.defaultValue(forKey: key)
  ///   }
  /// }
  /// ```
  open class func defaultValue(forKey key: String) -> Any? { defaultValueImpl(forKey: key) }

  /// The action for `event` (a key), as Core Animation searches for it:
  /// the delegate's `action(for:forKey:)` (see `CALayerDelegate`), then
  /// `actions`, then the `actions` of `style` (and its nested `style`s),
  /// then the class's `defaultAction(forKey:)`. `NSNull` anywhere stops the
  /// search: nil. Subclasses override it to change where actions come from.
  open func action(forKey event: String) -> CAAction? { actionImpl(forKey: event) }

  /// The class's action for `event`: for an animatable property, a basic
  /// animation with the current transaction's duration (0.25 s by default)
  /// and timing function; nil for other keys. See CAAction.swift.
  open class func defaultAction(forKey event: String) -> CAAction? {
    defaultActionImpl(forKey: event)
  }

  /// Whether `key` would be archived (Lamina archives no layers; true, as
  /// Core Animation answers for its own keys).
  open func shouldArchiveValue(forKey key: String) -> Bool { true }

  /// Whether changing `key` needs the layer redrawn (`setNeedsDisplay()` is
  /// then called when it changes); false for every key of Lamina's classes.
  /// Subclasses override it for the keys their `draw(in:)` depends on.
  open class func needsDisplay(forKey key: String) -> Bool { false }

  /// True when `point` (in the layer's bounds space) is inside the bounds.
  /// Subclasses override it to refine hit testing.
  open func contains(_ point: CGPoint) -> Bool {
    bounds.contains(point)
  }

  /// The front-most layer of this subtree that contains `point`, given in
  /// the superlayer's bounds space as in Core Animation; nil when none does.
  /// Hidden layers are skipped, `masksToBounds` clips the search, sublayers
  /// are tried front to back (higher `zPosition` first, then later ones).
  open func hitTest(_ point: CGPoint) -> CALayer? {
    hitTestInSuperlayerSpace(point)
  }

  /// Positions the sublayers. Called by `layoutIfNeeded()` when the layer
  /// needs layout (top-down, before each frame is built); override it, or
  /// give the layer a delegate with `layoutSublayers(of:)`. The default asks
  /// the delegate.
  open func layoutSublayers() {
    if let layoutManager {
      layoutManager.layoutSublayers(of: self)
    } else {
      delegate?.layoutSublayers(of: self)
    }
  }

  /// Tells the sublayers that this layer's size changed from `size` (called
  /// when the bounds change size and there is no layout manager); the
  /// default resizes each by its `autoresizingMask` (CALayer+Autoresizing.swift).
  open func resizeSublayers(withOldSize size: CGSize) { resizeSublayersImpl(withOldSize: size) }

  /// Moves and stretches the frame by `autoresizingMask` for the
  /// superlayer's change of size from `size`.
  open func resize(withOldSuperlayerSize size: CGSize) { resizeImpl(withOldSuperlayerSize: size) }

  /// The size the layer would like to be: its bounds' size, as transformed
  /// by its affine transform (Core Animation's default without a layout manager).
  open func preferredFrameSize() -> CGSize {
    if let size = layoutManager?.preferredSize(of: self) { return size }
    let a = CATransform3DGetAffineTransform(transform)
    let size = CGRect(origin: .zero, size: bounds.size).applying(
      CGAffineTransform(a: a.a, b: a.b, c: a.c, d: a.d, tx: 0, ty: 0)
    ).size
    return CATransform3DIsAffine(transform) ? size : bounds.size
  }

  // MARK: Overridable API
  //
  // Core Animation declares every member of CALayer `open`. Swift cannot
  // override a member declared in an extension (without Objective-C), so
  // the members whose bodies live in the extensions (CALayer+….swift) are
  // declared here and call them: a subclass in another module overrides
  // any of them, and calls through `CALayer` reach the override.

  /// The layer's bounds as seen in the superlayer's space (the bounding box
  /// when transformed). Setting it sets `bounds.size` and `position`.
  open var frame: CGRect {
    get { frameImpl }
    set { frameImpl = newValue }
  }
  /// The transform's x-y part, as Core Animation's `affineTransform()` reads it.
  open func affineTransform() -> CGAffineTransform { affineTransformImpl() }
  /// Sets `transform` to the affine transform `m`.
  open func setAffineTransform(_ m: CGAffineTransform) { setAffineTransformImpl(m) }
  /// Whether an odd number of ancestors flip their sublayers' geometry.
  open func contentsAreFlipped() -> Bool { contentsAreFlippedImpl() }
  /// How much larger than `cornerRadius` a corner of `curve` reaches.
  open class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
    cornerCurveExpansionFactorImpl(curve)
  }

  /// Appends `layer` to the sublayers, removing it from its old superlayer.
  open func addSublayer(_ layer: CALayer) { addSublayerImpl(layer) }
  /// Inserts `layer` at `index` (clamped to the sublayer count).
  open func insertSublayer(_ layer: CALayer, at index: UInt32) {
    insertSublayerImpl(layer, at: index)
  }
  /// Inserts `layer` just below `sibling` (at the back when it is not a sublayer).
  open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
    insertSublayerImpl(layer, below: sibling)
  }
  /// Inserts `layer` just above `sibling` (on top when it is not a sublayer).
  open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
    insertSublayerImpl(layer, above: sibling)
  }
  /// Puts `newLayer` where `oldLayer` is; nothing when `oldLayer` is not a sublayer.
  open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
    replaceSublayerImpl(oldLayer, with: newLayer)
  }
  /// Detaches the layer from its superlayer (or from the layer it masks).
  open func removeFromSuperlayer() { removeFromSuperlayerImpl() }

  /// Attaches a copy of `animation` under `key` (see CALayer+Animations.swift).
  open func add(_ animation: CAAnimation, forKey key: String?) { addImpl(animation, forKey: key) }
  /// The animation attached under `key`, or nil.
  open func animation(forKey key: String) -> CAAnimation? { animationImpl(forKey: key) }
  /// The keys of the attached animations in order, or nil when there are none.
  open func animationKeys() -> [String]? { animationKeysImpl() }
  /// Detaches the animation under `key`.
  open func removeAnimation(forKey key: String) { removeAnimationImpl(forKey: key) }
  /// Detaches every animation.
  open func removeAllAnimations() { removeAllAnimationsImpl() }

  /// Marks the contents as needing to be redrawn before the next frame.
  open func setNeedsDisplay() { setNeedsDisplayImpl() }
  /// Marks part of the contents as needing to be redrawn (Lamina redraws it all).
  open func setNeedsDisplay(_ r: CGRect) { setNeedsDisplayImpl(r) }
  /// Whether `setNeedsDisplay()` was called since the last display.
  open func needsDisplay() -> Bool { needsDisplayImpl() }
  /// Calls `display()` when the layer needs it.
  open func displayIfNeeded() { displayIfNeededImpl() }

  /// Marks the layer as needing layout at the next `layoutIfNeeded()`.
  open func setNeedsLayout() { setNeedsLayoutImpl() }
  /// Whether the layer is marked as needing layout.
  open func needsLayout() -> Bool { needsLayoutImpl() }
  /// Lays out the layer and then its sublayers that need it, top-down.
  open func layoutIfNeeded() { layoutIfNeededImpl() }

  /// Converts `p` from `l`'s bounds space into this layer's (nil: the canvas).
  open func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint { convertImpl(p, from: l) }
  /// Converts `p` from this layer's bounds space into `l`'s.
  open func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint { convertImpl(p, to: l) }
  /// Converts `r` from `l`'s bounds space into this layer's (the bounding box).
  open func convert(_ r: CGRect, from l: CALayer?) -> CGRect { convertImpl(r, from: l) }
  /// Converts `r` from this layer's bounds space into `l`'s.
  open func convert(_ r: CGRect, to l: CALayer?) -> CGRect { convertImpl(r, to: l) }
  /// Converts `t` from `l`'s time space into this layer's (nil: the clock's).
  open func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
    convertTimeImpl(t, from: l)
  }
  /// Converts `t` from this layer's time space into `l`'s.
  open func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
    convertTimeImpl(t, to: l)
  }

  /// Scrolls the nearest enclosing `CAScrollLayer` to bring `p` to its origin.
  open func scroll(_ p: CGPoint) { scrollImpl(p) }
  /// Scrolls the nearest enclosing `CAScrollLayer` so that `r` shows.
  open func scrollRectToVisible(_ r: CGRect) { scrollRectToVisibleImpl(r) }
  /// The part of the bounds the nearest enclosing `CAScrollLayer` shows.
  open var visibleRect: CGRect { visibleRectImpl }

  /// The value at a dotted key path (`position.x`, `transform.rotation.z`).
  open func value(forKeyPath keyPath: String) -> Any? { valueImpl(forKeyPath: keyPath) }
  /// Sets the value at a dotted key path.
  open func setValue(_ value: Any?, forKeyPath keyPath: String) {
    setValueImpl(value, forKeyPath: keyPath)
  }

  /// The layer as it appears now (see PresentationTree.swift).
  open func presentation() -> Self? { presentationImpl() }
  /// The model layer a presentation layer shows; a model layer returns itself.
  open func model() -> Self { modelImpl() }

  // The CAMediaTiming properties (CALayer+Timing.swift).

  /// Seconds of the superlayer's time at which the layer's time starts.
  open var beginTime: CFTimeInterval {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  /// One repetition of the layer's time; 0 (the default) means endless.
  open var duration: CFTimeInterval {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  /// How fast the layer's time (its subtree's, its animations') runs
  /// relative to the superlayer's; 0 freezes it at `timeOffset`.
  open var speed: Float {
    get { timing.speed }
    set { timing.speed = newValue }
  }
  /// Added to the layer's local time.
  open var timeOffset: CFTimeInterval {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
  /// Repetitions of the layer's time (with a `duration`).
  open var repeatCount: Float {
    get { timing.repeatCount }
    set { timing.repeatCount = newValue }
  }
  /// How long the layer's time repeats (with a `duration`).
  open var repeatDuration: CFTimeInterval {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  /// Whether each repetition runs back after it ran forward.
  open var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  /// What the layer's time holds outside its active period.
  open var fillMode: CAMediaTimingFillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }

  open override var description: String {
    let kind = String(describing: type(of: self))
    return name.map { "<\(kind) '\($0)'>" } ?? "<\(kind)>"
  }
}

// MARK: - The sublayer API (declared open in the class body)

extension CALayer {
  /// Appends `layer` to the sublayers, removing it from its old superlayer.
  func addSublayerImpl(_ layer: CALayer) {
    insertSublayer(layer, at: UInt32(storedSublayers.count))
  }

  /// Inserts `layer` at `index` (clamped to the sublayer count).
  func insertSublayerImpl(_ layer: CALayer, at index: UInt32) {
    guard layer !== self, !isDescendant(of: layer) else { return }
    var index = Int(index)
    if layer.storedSuperlayer === self,
      let old = storedSublayers.firstIndex(where: { $0 === layer })
    {
      storedSublayers.remove(at: old)
      if old < index { index -= 1 }
    } else {
      layer.removeFromSuperlayer()
      if layer.maskOwner != nil { layer.maskOwner?.mask = nil }
    }
    storedSublayers.insert(layer, at: min(max(index, 0), storedSublayers.count))
    layer.storedSuperlayer = self
    setNeedsLayout()
    if layer.needsLayoutFlag || layer.subtreeNeedsLayout { layer.markAncestorsForLayout() }
    if layer.displayPending || layer.subtreeNeedsDisplay { layer.markAncestorsForDisplay() }
    layer.runOrderAction(kCAOnOrderIn)
  }

  /// Inserts `layer` just below `sibling` (at the front when `sibling` is not a sublayer).
  func insertSublayerImpl(_ layer: CALayer, below sibling: CALayer?) {
    if let sibling, let i = storedSublayers.firstIndex(where: { $0 === sibling }) {
      insertSublayer(layer, at: UInt32(i))
    } else {
      insertSublayer(layer, at: 0)
    }
  }

  /// Inserts `layer` just above `sibling` (on top when `sibling` is not a sublayer).
  func insertSublayerImpl(_ layer: CALayer, above sibling: CALayer?) {
    if let sibling, let i = storedSublayers.firstIndex(where: { $0 === sibling }) {
      insertSublayer(layer, at: UInt32(i + 1))
    } else {
      addSublayer(layer)
    }
  }

  /// Puts `newLayer` where `oldLayer` is; does nothing when `oldLayer` is not a sublayer.
  func replaceSublayerImpl(_ oldLayer: CALayer, with newLayer: CALayer) {
    guard oldLayer !== newLayer,
      let i = storedSublayers.firstIndex(where: { $0 === oldLayer })
    else { return }
    oldLayer.removeFromSuperlayer()
    insertSublayer(newLayer, at: UInt32(i))
  }

  /// Detaches the layer from its superlayer (or from the layer it masks).
  func removeFromSuperlayerImpl() {
    if let owner = maskOwner, owner.mask === self {
      // A mask is detached from the layer it masks, as in Core Animation.
      owner.mask = nil
      return
    }
    if let parent = storedSuperlayer {
      runOrderAction(kCAOnOrderOut)
      parent.storedSublayers.removeAll { $0 === self }
      storedSuperlayer = nil
      parent.setNeedsLayout()
    }
  }

  /// True when `ancestor` is this layer's superlayer, or its superlayer's, and so on.
  public func isDescendant(of ancestor: CALayer) -> Bool {
    var layer = parentLayer
    while let current = layer {
      if current === ancestor { return true }
      layer = current.parentLayer
    }
    return false
  }
}
