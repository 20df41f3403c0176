import Foundation
import LaminaRender
import LaminaScene

// Relations about where pixels come from: the canvas at twice the scale,
// and each layer against its siblings.
extension Relation {
  /// The scene at canvas scale 2, each 2×2 block averaged, against scale 1.
  /// Core Animation lays out in points, so every size, radius, offset and
  /// blur is the same at both scales; what differs is sampling. Edges
  /// antialiased at two resolutions agree to within a few levels once both
  /// images are smoothed by a 3×3 box (an edge half a pixel off moves a
  /// smoothed value by under 1/6 of the contrast), but not pixel for
  /// pixel: so both sides are smoothed, a pixel is off above 32/255, and
  /// 1% of the pixels may be off (thin strokes and corners that the two
  /// resolutions resolve differently).
  ///
  /// The threshold follows from coincident edges. A layer's background,
  /// contents and border are composited one after another, each
  /// antialiased on its own (as Core Animation does), so where n edges
  /// coincide over a pixel of coverage c it reaches 1 - (1 - c)^n of the
  /// color, not c. At scale 2 the same edges cover the two sub-pixels
  /// min(1, 2c) and max(0, 2c - 1); an edge on a half point falls on a
  /// pixel boundary there and does not compound at all. The largest
  /// difference, at c = 1/2, is 1/4 of the contrast for two edges and
  /// 3/8 for three (one layer's background, contents and border: 96/255
  /// on a row of alpha 224 against 128); a straight row of it smoothed
  /// 3×3 is a third of that, 31.9/255. So a pixel is off above 32/255:
  /// up to three coincident edges at any position hold, and more (sibling
  /// layers' edges on the same half point) fall to the 1%. A radius, offset or size applied in
  /// pixels rather than points moves whole edges and fails by far more.
  /// What the scale changes beyond sampling is taken out of the scene
  /// first (`scaleInvariant`): text (hinted and laid out on the pixel
  /// grid), `nearest` and `trilinear` filtering (another texel or mip level
  /// wins), rasterized subtrees (cached at their own scale) and emitters
  /// (particles a few pixels across); so are the contents of layers that
  /// the linear filter minifies by more than 2× at scale 1
  /// (`Harness.layersMinifyingPastTheLinearFootprint`): with no mipmaps it
  /// reads 2×2 texels at each pixel's center and skips those between, so
  /// which texels show depends on where the centers fall, and scale 2's
  /// centers fall elsewhere (Core Animation's `linear` filter aliases so
  /// too). So are blend modes whose formula is not affine in the
  /// backdrop's color and in the source's
  /// (`blendModesAffineInEachColor`): an edge pixel blends the average of
  /// what it covers at scale 1 and each half of it at scale 2, and for a
  /// nonlinear B the blend of an average is not the average of the blends;
  /// color burn over a black border's edge on white gives red 0 at scale
  /// 1 and 255 on one of the two sub-pixels at scale 2 (finding
  /// nonlinear-blend-of-edges-at-scale-2, 128/255). Core Animation blends
  /// the pixels it has, so it differs between scales there too. The rest
  /// is compared.
  static let scale2 = Relation(
    name: "scale-2", summary: "canvas scale 2 averaged down against scale 1",
    transformsScene: true
  ) { s in
    var root = scaleInvariant(s.testCase.root)
    var scene = s.testCase.withRoot(root).scene
    do {
      let minified = try s.harness.layersMinifyingPastTheLinearFootprint(scene, time: s.time)
      if !minified.isEmpty {
        for path in minified { root = root.replacingLayer(at: path) { $0.removing("contents") } }
        scene = s.testCase.withRoot(root).scene
      }
      let small = root == s.testCase.root ? s.base : try s.render(scene)
      let large = try s.render(scene, scale: 2).halved()
      guard large.width == small.width, large.height == small.height else {
        return .notApplicable
      }
      let difference = PixelDifference(
        small.boxBlurred(), large.boxBlurred(), threshold: scaleTolerance.maxDifference)
      let allowed = PixelTolerance(
        maxDifference: scaleTolerance.maxDifference,
        maxPixels: small.width * small.height / 100, why: scaleTolerance.why)
      if difference.accepted(by: allowed) { return .passed }
      return .failed(
        Failure(
          relation: "scale-2", message: "\(difference) (both smoothed 3×3); allowed \(allowed)",
          threw: false, expected: small, actual: large, transformed: scene, tolerance: allowed,
          compared: nil))
    } catch {
      return s.threw("scale-2", error, transformed: scene)
    }
  }

  /// The tree without what a canvas scale changes beyond sampling (see `scale2`).
  static func scaleInvariant(_ root: JSON) -> JSON {
    func clean(_ layer: JSON) -> JSON? {
      let cls = layer.layerClass
      guard cls != "CATextLayer", cls != "CAEmitterLayer" else { return nil }
      var out = layer.removingKeys {
        $0 == "shouldRasterize" || $0 == "rasterizationScale" || $0 == "magnificationFilter"
          || $0 == "minificationFilter"
      }
      if let children = layer["sublayers"]?.elements {
        out = out.setting("sublayers", .array(children.compactMap(clean)))
      }
      if let mode = layer["compositingFilter"]?.string,
        SpecKeys.blendModes.contains(mode), !blendModesAffineInEachColor.contains(mode)
      {
        out = out.removing("compositingFilter")
      }
      if let mask = layer["mask"], case .object = mask {
        out = clean(mask).map { out.setting("mask", $0) } ?? out.removing("mask")
      }
      return out
    }
    return clean(root) ?? .object([])
  }

  /// The blend modes whose B(Cs, Cb) is affine in Cb for a fixed Cs and in
  /// Cs for a fixed Cb (multiply Cs·Cb, screen Cs + Cb − Cs·Cb, exclusion
  /// Cs + Cb − 2·Cs·Cb), so that blending an edge pixel's average color is
  /// blending each part and averaging, as source-over is. The others
  /// switch on a color (overlay, hard light), take a minimum, maximum or
  /// absolute value (darken, lighten, difference), divide by one (color
  /// dodge, color burn), take a root (soft light) or mix the channels
  /// through clipped luminosity (hue, saturation, color, luminosity).
  static let blendModesAffineInEachColor: Set<String> = [
    "CIMultiplyBlendMode", "CIScreenBlendMode", "CIExclusionBlendMode",
  ]

  static let scaleTolerance = PixelTolerance(
    maxDifference: 32, maxPixels: 0,
    why:
      "edges sampled at two resolutions, both smoothed 3×3 (three coincident edges compound by up to 32/255); 1% of the pixels may differ"
  )

  /// A layer's rendering must not depend on its siblings: each of up to
  /// three sublayers of a layer P, rendered as P's only sublayer, matches
  /// the full rendering wherever no sibling draws (the siblings' footprint,
  /// found by rendering them alone on a clear canvas, grown by 3 pixels for
  /// antialiasing and linear upsampling of rasterized layers).
  ///
  /// This holds in Core Animation where everything between P and the
  /// canvas is pixel-local, so P and its ancestors have no blur filter (nor
  /// a color matrix with an alpha bias, which fills the filter's area), no
  /// shadow cast from their rendering (a `shadowPath` is fine) and are no
  /// replicators; nothing outside P blurs what is behind it; and the layer
  /// itself has no background blur, which would read its earlier siblings
  /// across their edges. Siblings' own background filters cover their
  /// bounds in the footprint (they are given an opaque background there).
  static let alone = Relation(
    name: "alone",
    summary: "each sublayer rendered alone matches the full rendering where no sibling draws",
    transformsScene: true
  ) { s in
    var random = s.random(12)
    let root = s.testCase.root
    let parents = localParents(root)
    guard !parents.isEmpty else { return .notApplicable }
    let path = random.pick(parents)
    guard let parent = root.layer(at: path) else { return .notApplicable }
    let children = parent["sublayers"]?.elements ?? []
    let targets = random.shuffled(Array(children.indices)).prefix(3)
    var checked = false
    for i in targets where !hasBackdropBlur(children[i]) {
      let others = children.enumerated().filter { $0.offset != i }.map(\.element)
      let aloneRoot = root.replacingLayer(at: path) {
        $0.setting("sublayers", .array([children[i]]))
      }
      let aloneScene = s.testCase.withRoot(aloneRoot).scene
      let footprintScene = s.scene
        .setting("canvas", (s.scene["canvas"] ?? .object([])).removing("background"))
        .setting("root", footprintTree(root, path: path, sublayers: others.map(opaqueBackdrops)))
      do {
        let footprint = try s.render(footprintScene)
        let include = footprint.coverage(grownBy: 3).map { !$0 }
        guard include.contains(true) else { continue }
        checked = true
        let image = try s.render(aloneScene)
        let outcome = s.compare(
          "alone", image, .structural, transformed: aloneScene, include: include)
        if case .failed(var failure) = outcome {
          failure.message += " (sublayer \(i) of \(path), where its siblings do not draw)"
          return .failed(failure)
        }
      } catch {
        return s.threw("alone", error, transformed: aloneScene)
      }
    }
    return checked ? .passed : .notApplicable
  }

  /// Layers with two or more sublayers for which `alone` holds (see there).
  static func localParents(_ root: JSON) -> [LayerPath] {
    let all = root.layerPaths()
    return all.compactMap { path, layer in
      guard !path.isInMask, (layer["sublayers"]?.elements.count ?? 0) >= 2 else { return nil }
      var ancestry: [JSON] = []
      var p: LayerPath? = path
      while let current = p {
        if let l = root.layer(at: current) { ancestry.append(l) }
        p = current.parent
      }
      guard ancestry.allSatisfy(isPixelLocal) else { return nil }
      // Nothing outside this subtree and its ancestors blurs its backdrop.
      let blurredElsewhere = all.contains { other, layer in
        let inside = other.steps.starts(with: path.steps)
        let ancestor = path.steps.starts(with: other.steps)
        return !inside && !ancestor && hasOwnBackdropBlur(layer)
      }
      return blurredElsewhere ? nil : path
    }
  }

  /// Whether a layer passes each pixel of its subtree's rendering on by
  /// itself (no blur, no shadow of its rendering, no replication).
  static func isPixelLocal(_ layer: JSON) -> Bool {
    guard layer.layerClass != "CAReplicatorLayer" else { return false }
    // A blur reads the neighbours; a color matrix with an alpha bias makes
    // clear pixels visible across the area the filter covers, which is the
    // extent of what the sublayers draw (so it depends on the siblings).
    let nonLocal = (layer["filters"]?.elements ?? []).contains { filter in
      let name = filter["name"]?.string
      let alphaBias = filter["inputBiasVector"]?.elements.last?.number ?? 0
      return name == "CIGaussianBlur" || (name == "CIColorMatrix" && alphaBias != 0)
    }
    if nonLocal { return false }
    let shadow = (layer["shadowOpacity"]?.number ?? 0) > 0 || animates(layer, "shadowOpacity")
    return !shadow || layer["shadowPath"]?.string != nil
  }

  static func hasOwnBackdropBlur(_ layer: JSON) -> Bool {
    (layer["backgroundFilters"]?.elements ?? []).contains {
      $0["name"]?.string == "CIGaussianBlur"
    }
  }

  /// Whether a layer or anything below it blurs its backdrop.
  static func hasBackdropBlur(_ layer: JSON) -> Bool {
    layer.layerPaths().contains { hasOwnBackdropBlur($0.layer) }
  }

  /// `layer` with every layer that filters its backdrop given an opaque
  /// background last, so that its footprint covers what it filters.
  static func opaqueBackdrops(_ layer: JSON) -> JSON {
    var result = layer
    for (path, l) in layer.layerPaths() where l["backgroundFilters"] != nil {
      result = result.replacingLayer(at: path) {
        $0.settingLast("backgroundColor", .string("#ffffff"))
      }
    }
    return result
  }

  /// The keys that place a layer's sublayers, clip them or set the
  /// resolution they are drawn at (kept on the ancestors in a footprint
  /// rendering); the rest of what they draw goes. A rasterized ancestor
  /// draws its subtree at `rasterizationScale` and the linear filter
  /// spreads each raster pixel over 1/scale canvas pixels, further than the
  /// footprint's 3-pixel margin at 0.5: without the two keys the siblings'
  /// footprint was drawn sharp and a wrapped text's edge showed 4 pixels
  /// outside it (finding alone-footprint-of-rasterized-siblings).
  static let placementKeys = [
    "bounds", "position", "frame", "anchorPoint", "anchorPointZ", "zPosition", "transform",
    "sublayerTransform", "isGeometryFlipped", "isDoubleSided", "isHidden", "masksToBounds",
    "cornerRadius", "maskedCorners", "scrollMode", "shouldRasterize", "rasterizationScale",
  ]

  static func isPlacementKey(_ key: String) -> Bool {
    let head = key.split(separator: ".").first.map(String.init) ?? key
    return placementKeys.contains(head)
  }

  /// The tree from `root` down to the layer at `path`, each layer keeping
  /// only its placement and the one sublayer on the way, and that layer
  /// holding `sublayers`: it draws only what `sublayers` draw, where they
  /// draw it in the full tree.
  static func footprintTree(_ root: JSON, path: LayerPath, sublayers: [JSON]) -> JSON {
    func strip(_ layer: JSON) -> JSON {
      var m: [(key: String, value: JSON)] = []
      for (key, value) in layer.members {
        if key == "class" {
          let keep = ["CATransformLayer", "CAScrollLayer"].contains(value.string ?? "")
          if keep { m.append((key, value)) }
        } else if key == "animations" {
          let kept = value.elements.filter { isPlacementKey($0["keyPath"]?.string ?? "") }
          if !kept.isEmpty { m.append((key, .array(kept))) }
        } else if key == "scrollMode" {
          if layer.layerClass == "CAScrollLayer" { m.append((key, value)) }
        } else if isPlacementKey(key) {
          m.append((key, value))
        }
      }
      return .object(m)
    }
    guard let step = path.steps.first else {
      return strip(root).setting("sublayers", .array(sublayers))
    }
    let rest = LayerPath(Array(path.steps.dropFirst()))
    guard case .sublayer(let i) = step, let child = root["sublayers"]?.elements[safe: i] else {
      return strip(root)
    }
    return strip(root).setting(
      "sublayers", .array([footprintTree(child, path: rest, sublayers: sublayers)]))
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
