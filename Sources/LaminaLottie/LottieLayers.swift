import Foundation
import Lamina
import LaminaScene

extension Builder {
  // MARK: Compositions

  /// The layers of a composition, bottom first, each a tree in the
  /// composition's time (seconds = frame / fr).
  /// `end` is the frame (of this composition) at which what holds it ends:
  /// a layer whose out-point reaches it stays visible at that frame, as
  /// lottie-ios shows layers that end at `op` at `op` (the last frame of a
  /// document is on screen at its duration, not an empty canvas).
  /// `size` is the composition's (the document's, a precomposition's):
  /// its camera, if it has one, looks at its centre.
  func composition(
    _ layersNode: Node, depth: Int, chain: [String], end: Double? = nil, size: (Double, Double)? = nil
  ) throws -> [CALayer] {
    let model = try decoder.compositionModel(layersNode)
    let infos = model.layers
    let byInd = model.byInd
    // The topmost camera sees the composition's 3D layers (After Effects
    // uses the topmost camera that is on; Lamina the topmost at all times).
    var camera: CameraModel?
    let cameras = infos.filter { $0.kind == .camera && !$0.hidden }
    if let top = cameras.first {
      let (w, h) = size ?? (width, height)
      let (model, notes) = try decoder.camera(top, byInd: byInd, width: w, height: h)
      for note in notes { report(note.feature, note.path) }
      camera = model
      for other in cameras.dropFirst() {
        report("camera layer other than the topmost (not used)", other.path + ".ty")
      }
    }
    var out: [CALayer] = []
    for info in infos.reversed() {
      if info.isMatteSource || info.hidden || info.kind == .camera { continue }
      layerCount += 1
      try limit(info.node, "layers once precompositions are expanded", layerCount, limits.maxLayers, "maxLayers")
      let reachesEnd = end.map { info.op >= $0 - 1e-9 } ?? false
      guard
        var tree = try layerTree(
          info, byInd, depth: depth, chain: chain, reachesEnd: reachesEnd, camera: info.is3D ? camera : nil)
      else { continue }
      if info.matteMode != 0 {
        var source: LayerModel?
        if let tp = info.matteParent {
          source = byInd[tp]
        } else if info.index > 0 {
          source = infos[info.index - 1]
        }
        if let source,
          let matte = try layerTree(source, byInd, depth: depth, chain: chain, camera: source.is3D ? camera : nil)
        {
          let wrapper = CALayer()
          wrapper.name = "matte"
          wrapper.addSublayer(tree)
          wrapper.mask = matte
          // The matted layer's blend mode blends the matted result with
          // what is below (After Effects, Skottie's
          // `skottie-matte-blendmode`); inside the wrapper it would blend
          // with nothing.
          wrapper.compositingFilter = tree.compositingFilter
          tree.compositingFilter = nil
          switch info.matteMode {
          case 1: break
          case 2: wrapper.maskMode = .alphaInverted
          case 3: wrapper.maskMode = .luminance
          case 4: wrapper.maskMode = .luminanceInverted
          default: report("matte mode \(info.matteMode)", info.node.path + ".tt")
          }
          tree = wrapper
        } else {
          report("track matte without its matte layer", info.node.path + ".tt")
        }
      }
      out.append(tree)
    }
    return out
  }

  /// A layer with its parents' transforms around it, hidden outside [ip, op).
  /// Under a `camera` (a 3D layer of a composition that has one) the
  /// layer's transform, its parents' and the camera's projection are one
  /// projective matrix on the layer itself (`viewedLayer`).
  func layerTree(
    _ info: LayerModel, _ byInd: [Int: LayerModel], depth: Int, chain: [String], reachesEnd: Bool = false,
    camera: CameraModel? = nil
  ) throws -> CALayer? {
    guard let content = try layer(info, depth: depth, chain: chain, reachesEnd: reachesEnd) else { return nil }
    if let camera {
      try viewedLayer(content, info, byInd, camera: camera)
      try applyVisibility(
        content, ip: info.ip, op: info.op, compFrameRate: frameRate, throughOutPoint: reachesEnd,
        timeline: Timeline(frameRate: frameRate, offset: 0, remap: currentRemap), path: info.node.path + ".ip")
      return content
    }
    var tree = content
    for parent in try parents(of: info, byInd) {
      // An auto-oriented parent (a null along a path) turns its children too.
      let (t, notes) = try decoder.layerTransform(parent)
      for note in notes { report(note.feature, note.path) }
      let (outer, inner) = try transformLayers(
        t, timeline: Timeline(frameRate: frameRate, offset: 0, remap: currentRemap),
        path: parent.node.path + ".ks")
      outer.name = "parent \(parent.ind ?? 0)"
      inner.addSublayer(tree)
      tree = outer
    }
    if tree !== content {
      let wrapper = CALayer()
      wrapper.addSublayer(tree)
      tree = wrapper
    }
    try applyVisibility(
      tree, ip: info.ip, op: info.op, compFrameRate: frameRate, throughOutPoint: reachesEnd,
      timeline: Timeline(frameRate: frameRate, offset: 0, remap: currentRemap), path: info.node.path + ".ip")
    return tree
  }

  /// A layer's parents, nearest first: a missing one ends the chain (and
  /// is reported), a loop is an error naming the layer's `parent`.
  func parents(of info: LayerModel, _ byInd: [Int: LayerModel]) throws -> [LayerModel] {
    var chain: [LayerModel] = []
    var parentInd = info.parent
    var seen: Set<Int> = info.ind.map { [$0] } ?? []
    while let p = parentInd {
      guard let parent = byInd[p] else {
        report("parent not found", info.node.path + ".parent")
        break
      }
      guard seen.insert(p).inserted else {
        throw (info.node.child("parent") ?? info.node).invalid("parenting loops back to layer \(p)")
      }
      chain.append(parent)
      parentInd = parent.parent
    }
    return chain
  }

  /// Sets a 3D layer's `transform` (its outer layer, `content`) to its
  /// own matrix, its parents' (nearest first) and the camera's projection,
  /// composed in 3D as After Effects does (parents are not flattened in
  /// between), sampled per frame over the frames any of them changes.
  func viewedLayer(_ content: CALayer, _ info: LayerModel, _ byInd: [Int: LayerModel], camera: CameraModel) throws {
    var transforms = [try decoder.layerTransform(info).0]
    for parent in try parents(of: info, byInd) {
      let (t, notes) = try decoder.layerTransform(parent)
      for note in notes { report(note.feature, note.path) }
      transforms.append(t)
    }
    func matrix(_ f: Double) -> CATransform3D {
      var m = Matrix4()
      for t in transforms { m.multiply(t.matrix4(at: f).p) }
      m.multiply(camera.projection(at: f).p)
      return m.transform
    }
    let properties = transforms.flatMap(\.geometryProperties) + camera.properties
    content.transform = matrix(properties.map(\.firstFrame).min() ?? 0)
    content.removeAnimation(forKey: LayerKey.transform.rawValue)
    if let (a, b) = range(properties) {
      try budget(from: a, to: b, path: info.node.path + ".ks")
      content.add(
        Animations.sampled(
          keyPath: LayerKey.transform.rawValue, from: a, to: b,
          timeline: Timeline(frameRate: frameRate, offset: 0, remap: currentRemap), limit: limits.maxSampledFrames,
          discrete: false, extraFrames: properties.flatMap { $0.keyframes.map(\.t) }
        ) { matrix($0) }, forKey: LayerKey.transform.rawValue)
    }
  }

  /// One layer: transform (outer), anchor and opacity (inner), masks and content.
  func layer(_ info: LayerModel, depth: Int, chain: [String], reachesEnd: Bool = false) throws -> CALayer? {
    let n = info.node
    let content = try decoder.layerContent(info)
    for note in content.notes { report(note.feature, note.path) }
    // A layer's own keyframes are in its composition's time: its start time
    // `st` sets only a precomposition's content time (as lottie-web reads
    // them: its offset cancels between the frame and the key times).
    let timeline = Timeline(frameRate: frameRate, offset: 0, remap: currentRemap)
    let t = content.transform
    // Effects (filters, a drop shadow) stay on a layer of their own inside
    // the transform's, as they were made.
    let (outer, inner) = try transformLayers(
      t, alone: content.effects.isEmpty, timeline: timeline, path: n.path + ".ks")
    outer.name = content.name
    try applyOpacity(t.opacity, inner, timeline)
    blendMode(content.blendMode, outer, n.path + ".bm")
    try self.effects(content.effects, inner, timeline)
    if n.has("tm"), info.kind != .precomposition { report("time remapping on a non-precomp layer", n.path + ".tm") }
    switch info.kind {
    case .precomposition:
      try precomp(info, content, into: inner, depth: depth, chain: chain, reachesEnd: reachesEnd)
    case .solid:
      guard let (w, h, color) = content.solid else { break }
      let solid = CALayer()
      solid.anchorPoint = .zero
      solid.bounds = CGRect(x: 0, y: 0, width: w, height: h)
      solid.backgroundColor = hexColor(color)
      inner.addSublayer(solid)
    case .image:
      if let image = try imageLayer(n) { inner.addSublayer(image) }
    case .null:
      break
    case .shape:
      let shapes = content.shapes ?? ShapeList(items: [])
      let blendedBefore = blendedShapeItems
      let group = try shapeGroup(
        shapes, timeline: timeline, inheritedStyles: [], inheritedModifiers: [], repeats: 1)
      if blendedShapeItems > blendedBefore {
        // A shape item's blend mode blends with what its layer drew below
        // it, not with the layers below (After Effects, lottie-web and
        // rlottie): the layer's shapes are drawn as one isolated group.
        inner.addSublayer(isolatedGroup(group))
      } else {
        for l in group { inner.addSublayer(l) }
      }
    case .text:
      if let text = try textLayer(n, timeline) { inner.addSublayer(text) }
    case .camera:
      return nil  // It draws nothing: `composition` takes its view.
    case .other:
      report(info.kind.reportedName, n.path + ".ty")
      return nil
    }
    if !content.masks.isEmpty {
      if let (mask, mode) = try self.masks(content.masks, notes: content.maskNotes, timeline) {
        let holder = CALayer()
        for s in inner.sublayers ?? [] { holder.addSublayer(s) }
        holder.mask = mask
        holder.maskMode = mode
        inner.addSublayer(holder)
      }
    }
    try strokeEffects(content.effects, masks: content.masks, inner, timeline)
    return outer
  }

  /// `layers` in a holder drawn offscreen on its own (transparent)
  /// backdrop: masked by a layer that covers everything, so that blend
  /// modes inside blend with what the holder holds only.
  func isolatedGroup(_ layers: [CALayer]) -> CALayer {
    let holder = CALayer()
    holder.name = "blend group"
    for l in layers { holder.addSublayer(l) }
    let big = max(width, height) * 10 + 10000
    let everything = CALayer()
    everything.name = "blend group extent"
    everything.anchorPoint = .zero
    everything.bounds = CGRect(x: 0, y: 0, width: 2 * big, height: 2 * big)
    everything.position = CGPoint(x: -big, y: -big)
    everything.backgroundColor = .black
    holder.mask = everything
    return holder
  }

  func hexColor(_ s: String) -> CGColor {
    var hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
    if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
    guard hex.count >= 6, let v = UInt32(hex.prefix(6), radix: 16) else { return .black }
    return CGColor(
      red: CGFloat((v >> 16) & 0xff) / 255, green: CGFloat((v >> 8) & 0xff) / 255,
      blue: CGFloat(v & 0xff) / 255, alpha: 1)
  }

  // MARK: Precompositions

  /// The asset a layer's `refId` names.
  func asset(_ n: Node) throws -> Asset {
    let refNode = try n.required("refId")
    return try decoder.asset(try refNode.string(), refPath: refNode.path)
  }

  /// Layers of a composition asset once expanded (precomps inside counted
  /// too), from the compositions' models: every layer of each, and for a
  /// precomposition layer the expanded count of the asset it shows.
  func expandedCount(_ asset: Asset, _ layers: Node, chain: [String]) throws -> Int {
    let id = asset.id
    if let c = expandedCounts[id] { return c }
    if chain.contains(id) {
      throw LottieError.precompCycle(file: file, path: asset.path, chain: chain + [id])
    }
    var total = 0
    for l in try decoder.compositionModel(layers).layers {
      total += 1
      if l.kind == .precomposition, let ref = l.refId, assets[ref] != nil {
        let shown = try decoder.asset(ref, refPath: l.path + ".refId")
        if case .precomposition(let inner) = shown.kind {
          total += try expandedCount(shown, inner, chain: chain + [id])
        }
      }
      if total > limits.maxLayers { break }
    }
    expandedCounts[id] = total
    return total
  }

  func precomp(
    _ info: LayerModel, _ content: LayerContent, into inner: CALayer, depth: Int, chain: [String], reachesEnd: Bool = false) throws {
    let n = info.node
    let a = try asset(n)
    let id = a.id
    guard case .precomposition(let layers) = a.kind else {
      report("precomp layer of an image asset", n.path + ".refId")
      return
    }
    if chain.contains(id) {
      throw LottieError.precompCycle(file: file, path: n.path + ".refId", chain: chain + [id])
    }
    try limit(n, "precomposition nesting", depth + 1, limits.maxPrecompDepth, "maxPrecompDepth")
    let count = try expandedCount(a, layers, chain: chain)
    try limit(n, "layers once precompositions are expanded", layerCount + count, limits.maxLayers, "maxLayers")
    let container = CALayer()
    container.name = "precomp \(id)"
    container.anchorPoint = .zero
    let w = try n.number("w", default: a.width)
    let h = try n.number("h", default: a.height)
    if w > 0 && h > 0 && w <= 1e6 && h <= 1e6 {
      container.bounds = CGRect(x: 0, y: 0, width: w, height: h)
      container.masksToBounds = true
    }
    // The inner composition's time: (t − st) / sr, or the time remap
    // (its keyframes in this composition's frames, its values in the inner
    // composition's seconds, as lottie-web and rlottie read it).
    let time = CALayer()
    time.anchorPoint = .zero
    var remap: TimeRemap?
    for note in content.timeRemapNotes { report(note.feature, note.path) }
    let tm = content.timeRemap
    if let tm, tm.keyframes.count == 1, currentRemap == nil {
      time.speed = 0
      time.timeOffset = tm.keyframes[0].value[0]
    } else if currentRemap == nil, let k = tm?.keyframes, k.count == 2, !k[0].hold, k[1].t > k[0].t,
      k[0].end == nil,
      k[0].easeOut.map({ $0.point(0).0 == $0.point(0).1 }) ?? true,
      k[0].easeIn.map({ $0.point(0).0 == $0.point(0).1 }) ?? true
    {
      // Linear: the layer model's own timing.
      let slope = (k[1].value[0] - k[0].value[0]) / ((k[1].t - k[0].t) / frameRate)
      time.beginTime = k[0].t / frameRate
      time.speed = Float(slope)
      time.timeOffset = k[0].value[0]
    } else if tm == nil && currentRemap == nil {
      time.beginTime = info.st / frameRate
      time.speed = Float(1 / info.sr)
    } else {
      // Eased or many segments, or inside another remapping: every
      // animation inside is sampled at the frames the remapping gives.
      let outer = currentRemap
      let st = info.st
      let sr = info.sr
      let fr = frameRate
      let inner: (Double) -> Double
      if let tm {
        inner = { f in tm.scalar(at: f) * fr }
      } else {
        inner = { f in (f - st) / sr }
      }
      remap = TimeRemap(
        from: outer?.from ?? info.ip, to: outer?.to ?? info.op,
        frame: { f in inner(outer?.frame(f) ?? f) })
    }
    container.addSublayer(time)
    // The inner frame at this layer's out-point, when the layer is shown there.
    var innerEnd: Double?
    if reachesEnd {
      if let tm {
        innerEnd = tm.scalar(at: info.op) * frameRate
      } else if info.sr > 0 {
        innerEnd = (info.op - info.st) / info.sr
      }
    }
    let saved = currentRemap
    if let remap { currentRemap = remap }
    defer { currentRemap = saved }
    for l in try composition(layers, depth: depth + 1, chain: chain + [id], end: innerEnd, size: (w > 0 ? w : width, h > 0 ? h : height)) {
      time.addSublayer(l)
    }
    inner.addSublayer(container)
  }

  // MARK: Images

  func imageLayer(_ n: Node) throws -> CALayer? {
    let a = try asset(n)
    let id = a.id
    let w = a.width
    let h = a.height
    let cached: CGImage?
    if let c = images[id] {
      cached = c
    } else {
      cached = try loadImage(a)
      images[id] = cached
    }
    guard let image = cached else { return nil }
    let l = CALayer()
    l.anchorPoint = .zero
    l.bounds = CGRect(x: 0, y: 0, width: w > 0 ? w : Double(image.width), height: h > 0 ? h : Double(image.height))
    l.contents = image
    return l
  }

  func loadImage(_ a: Asset) throws -> CGImage? {
    // (An image layer naming a precomposition reads it as an image of no file.)
    var (u, p, embedded) = ("", "", false)
    if case .image(let directory, let file, let isEmbedded) = a.kind { (u, p, embedded) = (directory, file, isEmbedded) }
    var data: Data
    var where_ = a.path + ".p"
    if embedded {
      guard p.hasPrefix("data:"), let comma = p.firstIndex(of: ",") else {
        throw LottieError.imageFailed(file: file, path: where_, message: "embedded image is not a data URI")
      }
      let header = p[p.startIndex..<comma]
      let body = p[p.index(after: comma)...]
      try limit(at: a.filePath, "bytes of a data URI", body.utf8.count, limits.maxDataURIBytes, "maxDataURIBytes")
      guard header.hasSuffix(";base64"), let d = Data(base64Encoded: String(body), options: .ignoreUnknownCharacters) else {
        throw LottieError.imageFailed(file: file, path: where_, message: "data URI is not base64")
      }
      data = d
    } else {
      let relative = u + p
      if Builder.isURL(u) || Builder.isURL(p) {
        report("image asset URL (never fetched)", where_)
        return nil
      }
      where_ = a.path
      do {
        data = try assetData(relative, path: a.path)
      } catch let e as LottieError {
        throw e
      } catch let e as FileAccessError {
        throw e  // it names the file, the JSON path and the rule
      } catch {
        throw LottieError.imageFailed(file: file, path: where_, message: "cannot read image '\(relative)': \(error)")
      }
    }
    do {
      let header = try CGImage.header(of: data, path: where_)
      try CGImage.check(header, path: where_, maxDimension: Limits.maxImageSide)
      if decodedImageBytes + header.decodedBytes > Limits.maxDecodedImageBytes {
        throw LottieError.limitExceeded(
          file: file, path: where_,
          exceeded: LimitExceeded(
            what: "bytes of decoded images", found: decodedImageBytes + header.decodedBytes,
            limit: Limits.maxDecodedImageBytes, name: "maxDecodedImageBytes"))
      }
      let image = try CGImage.decode(data: data, path: where_, maxDimension: Limits.maxImageSide)
      decodedImageBytes += header.decodedBytes
      return image
    } catch let e as LottieError {
      throw e
    } catch {
      throw LottieError.imageFailed(file: file, path: where_, message: "\(error)")
    }
  }

  static func isURL(_ s: String) -> Bool {
    guard let colon = s.firstIndex(of: ":") else { return false }
    let scheme = s[s.startIndex..<colon]
    return !scheme.isEmpty && scheme.count > 1 && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
      && !s.hasPrefix("data:")
  }

  /// The one place a non-embedded asset file is read: through
  /// `LottieOptions.assetData` when set, else from the document's folder
  /// under `LottieOptions.access` (absolute paths, `..` or links that lead
  /// out and URLs refused, in one step with the open: docs/security.md).
  func assetData(_ relative: String, path: String) throws -> Data {
    if let read = options.assetData { return try read(relative) }
    // Its error (FileAccessError) names the file, the JSON path and the rule.
    return try options.access.read(
      relative, from: baseDirectory, file: file, jsonPath: path,
      maxBytes: Limits.maxImageFileBytes)
  }

  // MARK: Masks

  /// The masks of a layer as one luminance mask (the holder's `maskMode`
  /// is `.luminance`), or nil when none applies (mode `n`): an opaque
  /// group, black where nothing is let through, starting black (white when
  /// the first mask subtracts, intersects or darkens: it acts on the whole
  /// layer, as in After Effects), each mask a path filled with the grey of
  /// its opacity o and combined with what the masks before it made by a
  /// blend mode, as After Effects combines mask values m (0–1):
  /// add `m + o − m·o` (screen), subtract `m·(1 − o)` (multiply by 1 − o),
  /// intersect `m·o` and darken `min(m, o)` (zero outside the path),
  /// lighten `max(m, o)`, difference `|m − o|`. Inverted masks are the
  /// path's outside (even-odd with a large rect); expansion (`x`) offsets
  /// the path, feather (`f`) blurs it (σ = feather / 2, as the Gaussian
  /// blur effect); animated paths, expansions, opacities and feathers are
  /// sampled or animated per frame.
  func masks(_ list: [Mask], notes: [LottieUnsupported], _ timeline: Timeline) throws
    -> (CALayer, CALayerMaskMode)?
  {
    let big = max(width, height) * 10 + 10000
    let everything = CGRect(x: -big, y: -big, width: 2 * big, height: 2 * big)
    func cover(_ gray: CGFloat) -> CALayer {
      let l = CALayer()
      l.anchorPoint = .zero
      l.bounds = CGRect(origin: .zero, size: everything.size)
      l.position = everything.origin
      l.backgroundColor = CGColor(red: gray, green: gray, blue: gray, alpha: 1)
      return l
    }
    var applicable: [Mask] = []
    for m in list {
      if m.mode == .none { continue }
      if case .other(let code) = m.mode { report("mask mode '\(code)' (drawn as add)", m.path + ".mode") }
      applicable.append(m)
    }
    for note in notes { report(note.feature, note.path) }
    guard let firstMode = applicable.first?.mode else { return nil }
    // One mask that adds: its shape in white at the mask's opacity, read by
    // its alpha (what the luminance of the grey shape screened over black
    // gives), one path the renderer draws with the masked content.
    let alone = applicable.count == 1 && firstMode == .add
    let group = CALayer()
    group.name = "masks"
    group.addSublayer(cover([.subtract, .intersect, .darken].contains(firstMode) ? 1 : 0))
    for m in applicable {
      let mode = m.mode
      let inverted = m.inverted
      let pathProp = m.shape
      let opacity = m.opacity
      let expansion = m.expansion
      let feather = m.feather
      let shape = CAShapeLayer()
      shape.name = "mask \(mode.code)"
      if inverted { shape.fillRule = .evenOdd }
      func path(_ f: Double) -> CGPath {
        var s = BezierShape(vector: pathProp.value(at: f), closed: pathProp.closed)
        let grow = expansion.scalar(at: f)
        // Growing rounds the corners (round joins); shrinking keeps them
        // sharp (miters: a round join would loop inside a convex corner).
        if grow > 0 { s = Geometry.offset(s, amount: grow, join: 2, miterLimit: 4) }
        if grow < 0 { s = Geometry.offset(s, amount: grow, join: 1, miterLimit: 1000) }
        let p = CGMutablePath()
        if inverted { p.addRect(everything) }
        s.add(to: p)
        return p
      }
      let first = [pathProp, expansion].map(\.firstFrame).min() ?? 0
      shape.path = path(first)
      // An animated mask path (or expansion) is sampled per frame, the
      // vectors interpolated as for shapes: Core Animation cannot
      // interpolate paths whose elements differ (a circle against a square).
      if let (a, b) = range([pathProp, expansion]) {
        try budget(from: a, to: b, elements: shape.path?.elements.count ?? 0, path: m.path + ".pt")
        shape.add(
          Animations.sampled(
            keyPath: LayerKey.path.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: true
          ) { path($0) }, forKey: LayerKey.path.rawValue)
      }
      // The grey of the mask's opacity (subtract: of one minus it).
      func gray(_ v: [Double]) -> CGColor {
        let o = min(max(v[0] / 100, 0), 1)
        if alone { return CGColor(red: 1, green: 1, blue: 1, alpha: o) }
        let g = mode == .subtract ? 1 - o : o
        return CGColor(red: g, green: g, blue: g, alpha: 1)
      }
      shape.fillColor = gray(opacity.first)
      try animate(shape, opacity, LayerKey.fillColor.rawValue, timeline) { gray($0) }
      try self.feather(feather, shape, timeline, path: m.path + ".f")
      if alone { return (shape, .alpha) }
      let blend: String
      switch mode {
      case .subtract, .intersect: blend = "CIMultiplyBlendMode"
      case .lighten: blend = "CILightenBlendMode"
      case .darken: blend = "CIDarkenBlendMode"
      case .difference: blend = "CIDifferenceBlendMode"
      case .add, .none, .other: blend = "CIScreenBlendMode"
      }
      var piece: CALayer = shape
      if mode == .intersect || mode == .darken {
        // Zero outside the path: the path over black, combined as one.
        piece = CALayer()
        piece.name = "mask \(mode.code) over black"
        piece.addSublayer(cover(0))
        piece.addSublayer(shape)
      }
      piece.compositingFilter = CIFilter(name: blend)
      group.addSublayer(piece)
    }
    return (group, .luminance)
  }

  /// A mask's feather (`f`, two numbers: horizontal and vertical; their
  /// larger is used) as a Gaussian blur of its shape, animated when it is.
  func feather(_ p: Property, _ layer: CALayer, _ timeline: Timeline, path: String) throws {
    func sigma(_ v: [Double]) -> CGFloat {
      CGFloat(min(max((v.max() ?? 0) / 2, 0), Double(Limits.maxBlurRadius)))
    }
    guard p.isAnimated || sigma(p.first) > 0, let blur = CIFilter(name: "CIGaussianBlur") else { return }
    blur.setValue(sigma(p.first), forKey: "inputRadius")
    layer.filters = [blur]
    try animate(layer, p, "filters.CIGaussianBlur.inputRadius", timeline) { sigma($0) }
  }

  // MARK: Effects

  /// Appends `filter` (named `name`, so that its inputs' key paths are its
  /// own) to the layer's filters, within `Limits.maxFiltersPerLayer`.
  func addFilter(_ filter: CIFilter, named name: String, to layer: CALayer) -> Bool {
    guard (layer.filters?.count ?? 0) < Limits.maxFiltersPerLayer else { return false }
    filter.name = name
    layer.filters = (layer.filters ?? []) + [filter]
    return true
  }

  /// Effects (`ef`) as the layer's filters (or shadow), each input
  /// animated when its effect's values are: sampled per frame over the
  /// frames any of them changes.
  func effects(_ effects: [Effect], _ layer: CALayer, _ timeline: Timeline) throws {
    for e in effects {
      for note in e.notes { report(note.feature, note.path) }
      let first = e.firstFrame
      let id = "effect\(e.index)"
      let changes = range(e.properties)
      /// Animates `keyPath` of the layer with `value` sampled per frame, when the effect is animated.
      func sample<Value>(_ keyPath: String, _ value: @escaping (Double) -> Value) throws {
        guard let (a, b) = changes else { return }
        try budget(from: a, to: b, path: e.path)
        layer.add(
          Animations.sampled(
            keyPath: keyPath, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false, value: { value($0) }), forKey: keyPath)
      }
      switch e.kind {
      case .gaussianBlur, .boxBlur:
        let dimensions = e.blurDimensions
        if dimensions == 2 || dimensions == 3 {
          report("effect: \(e.name ?? "blur") in one direction only (blurred both ways)", e.path)
        }
        func radius(_ f: Double) -> CGFloat {
          CGFloat(min(max(e.blurSigma(at: f) ?? 0, 0), Double(Limits.maxBlurRadius)))
        }
        guard let filter = CIFilter(name: "CIGaussianBlur") else { continue }
        filter.setValue(radius(first), forKey: "inputRadius")
        guard addFilter(filter, named: id, to: layer) else { continue }
        try sample("filters.\(id).inputRadius") { radius($0) }
      case .dropShadow:
        guard let shadow = e.shadow(at: first) else { continue }
        layer.shadowColor = color(shadow.color)
        layer.shadowOpacity = shadow.opacity
        layer.shadowOffset = shadow.offset
        layer.shadowRadius = shadow.radius
        func at(_ f: Double) -> ShadowValues { e.shadow(at: f) ?? shadow }
        try sample(LayerKey.shadowColor.rawValue) { self.color(at($0).color) }
        try sample(LayerKey.shadowOpacity.rawValue) { at($0).opacity }
        try sample(LayerKey.shadowOffset.rawValue) { at($0).offset }
        try sample(LayerKey.shadowRadius.rawValue) { at($0).radius }
      case .fill, .tint, .tritone:
        if case .fill(_, let inverted, _) = e.kind, inverted.scalar(at: first, 0) != 0 {
          report("effect: Fill (inverted)", e.path)
        }
        if e.tritoneMidtonesOffLine {
          report("effect: Tritone midtones (shadows to highlights drawn as a line)", e.path)
        }
        guard let matrix = e.colorMatrix(at: first), let filter = CIFilter(name: "CIColorMatrix")
        else { continue }
        for (key, v) in zip(ColorMatrix.inputKeys, matrix.inputs) { filter.setValue(v, forKey: key) }
        guard addFilter(filter, named: id, to: layer) else { continue }
        for (i, key) in ColorMatrix.inputKeys.enumerated() {
          try sample("filters.\(id).\(key)") { (e.colorMatrix(at: $0) ?? matrix).inputs[i] }
        }
      case .stroke, .control:
        break  // A stroke is drawn over the content (strokeEffects); a control draws nothing.
      case .other:
        report("effect: \(e.name ?? "type \(e.type)")", e.path)
      }
    }
  }

  /// Stroke effects (22) along the layer's masks, over its content:
  /// path (mask number, from 1) or all masks, colour, brush size, opacity
  /// (0–1), start and end (%) as `strokeStart` and `strokeEnd`, paint style
  /// (1 on the original, 2 on transparent: the content hidden, 3 revealing
  /// the original: the content shown through the stroke only). Brush
  /// hardness and spacing are not drawn (reported when not the defaults).
  func strokeEffects(_ effects: [Effect], masks maskList: [Mask], _ inner: CALayer, _ timeline: Timeline) throws {
    for e in effects {
      guard case .stroke(let stroke) = e.kind else { continue }
      let all = stroke.allMasks.padded([0]).first[0] != 0
      let index = Int(saturating: min(max(stroke.mask.padded([1]).first[0], 1), 1e6)) - 1
      let chosen = all ? Array(maskList.indices) : (index < maskList.count ? [index] : [])
      guard !chosen.isEmpty else {
        report("effect: Stroke without its mask", e.path)
        continue
      }
      let hardness = stroke.brushHardness.padded([0])
      if hardness.isAnimated || hardness.first[0] != 0 || stroke.spacing.padded([0]).first[0] != 0 {
        report("effect: Stroke brush hardness and spacing (a plain line drawn)", e.path)
      }
      let colorProp = stroke.color.padded([1, 1, 1, 1])
      let size = stroke.brushSize.padded([2])
      let opacity = stroke.opacity.padded([1])
      let start = stroke.start.padded([0])
      let end = stroke.end.padded([100])
      let style = Int(stroke.paintStyle.padded([1]).first[0])
      let strokes = CALayer()
      strokes.name = "stroke effect"
      try madeShapeLayers(chosen.count + 1, e.path)
      for i in chosen {
        let pathProp = maskList[i].shape
        let shape = CAShapeLayer()
        shape.fillColor = nil
        shape.lineCap = .round
        shape.lineJoin = .round
        shape.path = BezierShape(vector: pathProp.first, closed: pathProp.closed).cgPath
        try animate(shape, pathProp, LayerKey.path.rawValue, timeline) { BezierShape(vector: $0, closed: pathProp.closed).cgPath }
        shape.strokeColor = color(colorProp.first)
        try animate(shape, colorProp, LayerKey.strokeColor.rawValue, timeline) { self.color($0) }
        shape.lineWidth = CGFloat(min(max(size.first[0], 0), 1e4))
        try animate(shape, size, LayerKey.lineWidth.rawValue, timeline) { CGFloat(min(max($0[0], 0), 1e4)) }
        shape.strokeStart = CGFloat(min(max(start.first[0] / 100, 0), 1))
        try animate(shape, start, LayerKey.strokeStart.rawValue, timeline) { CGFloat(min(max($0[0] / 100, 0), 1)) }
        shape.strokeEnd = CGFloat(min(max(end.first[0] / 100, 0), 1))
        try animate(shape, end, LayerKey.strokeEnd.rawValue, timeline) { CGFloat(min(max($0[0] / 100, 0), 1)) }
        shape.opacity = Float(min(max(opacity.first[0], 0), 1))
        try animate(shape, opacity, LayerKey.opacity.rawValue, timeline) { Float(min(max($0[0], 0), 1)) }
        strokes.addSublayer(shape)
      }
      switch style {
      case 2:
        // On transparent: the stroke alone.
        for l in inner.sublayers ?? [] { l.removeFromSuperlayer() }
        inner.addSublayer(strokes)
      case 3:
        // Reveal the original: the content through the stroke.
        let holder = CALayer()
        for l in inner.sublayers ?? [] { holder.addSublayer(l) }
        holder.mask = strokes
        inner.addSublayer(holder)
      default:
        inner.addSublayer(strokes)
      }
    }
  }
}
