import Foundation
import Lamina
import LaminaBatch
import LaminaLottie
import LaminaScene

/// `lamina info FILE [--json]`: what a document is. A Lottie animation: its
/// size, frame rate, frames, duration, layers, markers and each feature the
/// import left out with its JSON path. A scene: its canvas, layers and
/// animations. Loads the file as `render` does (the same errors), draws
/// nothing.
func describeDocument(
  _ path: String, json: Bool, expressions: LottieExpressionPolicy? = nil
) throws -> Int32 {
  let document = try Document.load(
    contentsOf: URL(fileURLWithPath: path), expressions: expressions)
  let object = describe(document)
  if json {
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
  } else {
    print(describeText(document))
  }
  return 0
}

/// The description as a JSON object.
func describe(_ document: Document) -> [String: Any] {
  guard let lottie = document.lottie else {
    let scene = document.scene
    var counts = (layers: 0, animations: 0)
    count(scene.root, &counts)
    var object: [String: Any] = [
      "file": document.fileName, "kind": "scene",
      "canvas": [
        "width": Double(scene.canvas.width), "height": Double(scene.canvas.height),
        "scale": Double(scene.canvas.scale), "pixelWidth": scene.canvas.pixelWidth,
        "pixelHeight": scene.canvas.pixelHeight,
      ],
      "layers": counts.layers, "animations": counts.animations, "images": scene.images.count,
    ]
    // A scene with no animations settles at once (-inf): no time to give,
    // and JSON has no infinities.
    if let settled = scene.root.settledTime(), settled.isFinite {
      object["settledTime"] = settled
    }
    return object
  }
  return [
    "file": document.fileName, "kind": "lottie",
    "packaging": document.kind?.rawValue ?? "json",
    "width": Double(lottie.width), "height": Double(lottie.height),
    "frameRate": lottie.frameRate, "inPoint": lottie.inPoint, "outPoint": lottie.outPoint,
    "frames": Int(saturating: (lottie.outPoint - lottie.inPoint - 1e-9).rounded(.up)),
    "duration": lottie.duration, "layers": lottie.layerCount,
    "markers": lottie.markers.map {
      ["name": $0.name, "startFrame": $0.startFrame, "durationFrames": $0.durationFrames]
        as [String: Any]
    },
    "unsupported": lottie.unsupported.map { ["feature": $0.feature, "path": $0.path] },
  ]
}

/// The description as text, one fact a line.
func describeText(_ document: Document) -> String {
  let n = Scene.seconds
  guard let lottie = document.lottie else {
    let scene = document.scene
    var counts = (layers: 0, animations: 0)
    count(scene.root, &counts)
    var lines = [
      "\(document.fileName): Lamina scene",
      "canvas: \(n(Double(scene.canvas.width)))x\(n(Double(scene.canvas.height))) points at"
        + " scale \(n(Double(scene.canvas.scale))) (\(scene.canvas.pixelWidth)x\(scene.canvas.pixelHeight) pixels)",
      "layers: \(counts.layers)",
      "animations: \(counts.animations)",
      "images: \(scene.images.count)",
    ]
    switch scene.root.settledTime() {
    case let settled? where settled.isFinite:
      lines.append("settled: every animation ends by t=\(n(settled)) s")
    case nil where counts.animations > 0:
      lines.append("settled: never (an animation repeats forever)")
    default:
      break
    }
    return lines.joined(separator: "\n")
  }
  let packaging: String
  switch document.kind ?? .json {
  case .json: packaging = "Lottie document"
  case .dotLottie: packaging = "Lottie animation in a dotLottie archive"
  case .telegramSticker: packaging = "Lottie animation in a Telegram sticker (gzip)"
  }
  let frames = Int(saturating: (lottie.outPoint - lottie.inPoint - 1e-9).rounded(.up))
  var lines = [
    "\(document.fileName): \(packaging)",
    "size: \(n(Double(lottie.width)))x\(n(Double(lottie.height))) points",
    "frame rate: \(n(lottie.frameRate)) fps",
    "frames: \(n(lottie.inPoint))..\(n(lottie.outPoint)) (in-point ip to out-point op, \(frames) frames)",
    "duration: \(n(lottie.duration)) s",
    "layers: \(lottie.layerCount)",
  ]
  if lottie.markers.isEmpty {
    lines.append("markers: none")
  } else {
    lines.append("markers:")
    for marker in lottie.markers {
      lines.append(
        "  \(marker.name): frames \(n(marker.startFrame))..\(n(marker.startFrame + marker.durationFrames))"
          + " (\(n(marker.durationFrames)) frames)")
    }
  }
  if lottie.unsupported.isEmpty {
    lines.append("unsupported: none")
  } else {
    lines.append("unsupported (\(lottie.unsupported.count)):")
    for item in lottie.unsupported { lines.append("  \(item.feature) at \(item.path)") }
  }
  return lines.joined(separator: "\n")
}

/// Layers (sublayers and masks) and animations of the tree under `layer`.
private func count(_ layer: CALayer, _ counts: inout (layers: Int, animations: Int)) {
  counts.layers += 1
  counts.animations += layer.animationKeys()?.count ?? 0
  if let mask = layer.mask { count(mask, &counts) }
  for sublayer in layer.sublayers ?? [] { count(sublayer, &counts) }
}
