import Foundation
import Lamina

// A camera layer (`ty` 13) and what it does to its composition's 3D layers.
//
// After Effects projects a 3D layer through the composition's camera: a
// point X of the composition's space is taken into the camera's space
// (the inverse of the camera's own transform: its position, its turn
// towards its point of interest, its orientation and rotations, its
// parents'), then seen in perspective from the eye, `pe` (the zoom) in
// front of the picture plane: a point at depth d in front of the camera
// lands at the canvas centre plus `pe / d` times its offset from the
// camera's axis. The default camera, (w/2, h/2, −pe) looking along +z,
// draws the plane z = 0 at its own size. lottie-web's HTML renderer does
// the same through CSS (`HCameraElement`: the inverse camera matrix, then
// `perspective: pe` about the composition's centre); this file does it as
// one matrix per layer, which Core Animation's model draws directly: a
// layer's `transform` may be projective.
//
// The numbers are in the space of `TransformSpec.matrix4`: z towards the
// viewer (Core Animation's and CSS's), the document's z negated.

/// A composition's camera.
struct CameraModel {
  /// The camera layer.
  let layer: LayerModel
  /// `pe`: the zoom, the eye's distance from the picture plane, in points.
  let zoom: Property
  /// Its transform: position, point of interest (`a`), orientation, rotations.
  let transform: TransformSpec
  /// A two-node camera (`ks.a` present) turns to look at its point of interest.
  let hasPointOfInterest: Bool
  /// Its parents' transforms, nearest first.
  let parents: [TransformSpec]
  /// The composition's size: the eye looks at its centre.
  let width: Double
  let height: Double

  /// Every value the projection depends on.
  var properties: [Property] {
    [zoom] + transform.geometryProperties + parents.flatMap(\.geometryProperties)
  }

  /// Maps a point of the composition's 3D space to the canvas (row
  /// vectors, with the perspective in its fourth column) at frame `f`.
  func projection(at f: Double) -> Matrix4 {
    var m = Matrix4()
    // Into the space of the camera's parents (nearest parent applied first
    // to the camera, so undone last).
    var parentMatrix = Matrix4()
    for p in parents { parentMatrix.multiply(p.matrix4(at: f).p) }
    if !parents.isEmpty, let inverse = parentMatrix.inverse { m = inverse }
    // Relative to the camera's position (its z negated, as every z here).
    let p = transform.positionValue(at: f)
    let pz = p.count > 2 ? p[2] : 0
    m.translate(-p[0], -(p.count > 1 ? p[1] : 0), pz)
    if hasPointOfInterest {
      // Turned so that the point of interest lies on the axis in front.
      let a = transform.anchor.value(at: f)
      let d = [
        p[0] - a[0], (p.count > 1 ? p[1] : 0) - (a.count > 1 ? a[1] : 0),
        pz - (a.count > 2 ? a[2] : 0),
      ]
      let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).squareRoot()
      if length > 1e-9 {
        let (x, y, z) = (d[0] / length, d[1] / length, d[2] / length)
        let turnX = atan2(y, (x * x + z * z).squareRoot())
        let turnY = atan2(x, -z)
        m.rotateY(turnY)
        m.rotateX(-turnX)
      }
    }
    // The camera's orientation, then its rotations, undone (the inverse of
    // a layer's: rotation z, y, x, then orientation z, y, x).
    let radians = Double.pi / 180
    let o = transform.orientation.value(at: f)
    if o.count >= 3 {
      m.rotateX(-o[0] * radians)
      m.rotateY(-o[1] * radians)
      m.rotateZ(o[2] * radians)
    }
    m.rotateX(-transform.rotationX.scalar(at: f) * radians)
    m.rotateY(-transform.rotationY.scalar(at: f) * radians)
    m.rotateZ(transform.rotation.scalar(at: f) * radians)
    // The eye `pe` in front of the plane through the camera at depth pe,
    // looking at the composition's centre.
    let zoom = max(self.zoom.scalar(at: f), 1)
    m.translate(0, 0, zoom)
    m.multiply([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / zoom, 0, 0, 0, 1])
    m.translate(width / 2, height / 2, 0)
    return m
  }
}

extension Decoder {
  /// The camera layer `layer` of a composition of `width` × `height`.
  func camera(_ layer: LayerModel, byInd: [Int: LayerModel], width: Double, height: Double) throws
    -> (CameraModel, [LottieUnsupported])
  {
    let n = layer.node
    let zoomNode = try n.required("pe")
    let zoom = try property(zoomNode, [1])
    guard zoom.first.first.map({ $0 >= 1 }) ?? false else {
      throw zoomNode.invalid("camera zoom \(zoom.first.first ?? 0) must be at least 1 point")
    }
    var (transform, notes) = try layerTransform(layer)
    transform.is3D = true
    var parents: [TransformSpec] = []
    var parentInd = layer.parent
    var seen: Set<Int> = layer.ind.map { [$0] } ?? []
    while let p = parentInd {
      guard let parent = byInd[p] else {
        notes.append(LottieUnsupported(feature: "parent not found", path: n.path + ".parent"))
        break
      }
      guard seen.insert(p).inserted else {
        throw (n.child("parent") ?? n).invalid("parenting loops back to layer \(p)")
      }
      let (t, parentNotes) = try layerTransform(parent)
      notes += parentNotes
      parents.append(t)
      parentInd = parent.parent
    }
    let camera = CameraModel(
      layer: layer, zoom: zoom, transform: transform,
      hasPointOfInterest: n.child("ks")?.has("a") ?? false, parents: parents, width: width,
      height: height)
    return (camera, notes)
  }
}

extension Matrix4 {
  /// The inverse (Gauss–Jordan with partial pivoting), nil when singular.
  var inverse: Matrix4? {
    var a = p
    var r = Matrix4().p
    for col in 0..<4 {
      var pivot = col
      for row in col + 1..<4 where abs(a[row * 4 + col]) > abs(a[pivot * 4 + col]) { pivot = row }
      let value = a[pivot * 4 + col]
      guard abs(value) > 1e-12, value.isFinite else { return nil }
      if pivot != col {
        for k in 0..<4 {
          a.swapAt(pivot * 4 + k, col * 4 + k)
          r.swapAt(pivot * 4 + k, col * 4 + k)
        }
      }
      for k in 0..<4 {
        a[col * 4 + k] /= value
        r[col * 4 + k] /= value
      }
      for row in 0..<4 where row != col {
        let factor = a[row * 4 + col]
        guard factor != 0 else { continue }
        for k in 0..<4 {
          a[row * 4 + k] -= factor * a[col * 4 + k]
          r[row * 4 + k] -= factor * r[col * 4 + k]
        }
      }
    }
    var m = Matrix4()
    m.p = r
    return m
  }
}
