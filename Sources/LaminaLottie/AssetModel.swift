import Foundation
import Lamina

/// An asset (`assets[i]`), decoded the first time a layer uses it and
/// shared by every use: a precomposition's layers or an image.
struct Asset {
  enum Kind {
    /// A composition: its layers (`layers`), decoded as a `CompositionModel` when built.
    case precomposition(layers: Node)
    /// An image: a file `u` + `p` beside the document (or a URL, never
    /// fetched), or a data URI in `p` (`e`).
    case image(directory: String, file: String, embedded: Bool)
  }

  let id: String
  /// The asset's JSON path.
  let path: String
  /// `w` × `h` (0 when absent): a precomposition's clip, an image's size.
  let width: Double
  let height: Double
  let kind: Kind
  /// Where the image's `p` is (the asset itself when it has none).
  let filePath: String
}

extension Decoder {
  /// The asset `id` (named by the `refId` at `refPath`), decoded once.
  func asset(_ id: String, refPath: String) throws -> Asset {
    if let a = decodedAssets[id] { return a }
    guard let a = assets[id] else {
      throw LottieError.unknownAsset(file: file, path: refPath, id: id)
    }
    let kind: Asset.Kind
    if let layers = a.child("layers") {
      kind = .precomposition(layers: layers)
    } else {
      let p = try a.string("p") ?? ""
      kind = .image(
        directory: try a.string("u") ?? "", file: p, embedded: a.bool("e") || p.hasPrefix("data:"))
    }
    let asset = Asset(
      id: id, path: a.path, width: try a.number("w", default: 0),
      height: try a.number("h", default: 0),
      kind: kind, filePath: (a.child("p") ?? a).path)
    decodedAssets[id] = asset
    return asset
  }
}
