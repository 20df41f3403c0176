import Foundation
import Lamina
import LaminaScene

/// Errors of loading a Lottie document: each names the file and, past the
/// JSON syntax, the JSON path of the offending value, such as
/// `anim.json: layers[3].shapes[0].it[2].ks.k[5].s: expected a number, found a string`.
public enum LottieError: Error, Equatable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(file: String, reason: String)
  /// The file is not valid JSON (the scene reader's strict syntax).
  case syntax(file: String, line: Int, column: Int, message: String)
  /// The JSON is not a Lottie document (no `v`, `fr`, `ip`, `op`, `w`, `h`, `layers`).
  case notLottie(file: String, missing: [String])
  /// A required key is missing from an object.
  case missingKey(file: String, path: String, key: String)
  /// A value has the wrong JSON type or shape.
  case wrongType(file: String, path: String, expected: String, found: String)
  /// A value that is well typed but out of range or inconsistent.
  case invalidValue(file: String, path: String, message: String)
  /// A precomposition that contains itself, directly or through others.
  case precompCycle(file: String, path: String, chain: [String])
  /// A layer names an asset the document does not have.
  case unknownAsset(file: String, path: String, id: String)
  /// An image asset that is missing, corrupt, too large or refused.
  case imageFailed(file: String, path: String, message: String)
  /// The document exceeds one of the `LottieLimits` (or `Limits`).
  case limitExceeded(file: String, path: String, exceeded: LimitExceeded)
  /// An expression (at `path`, the property's `x`) threw, gave something
  /// other than numbers, or ran past its CPU, memory or wall-clock limit.
  case expression(file: String, path: String, message: String)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): cannot read the Lottie file: \(reason)"
    case .syntax(let file, let line, let column, let message): return "\(file):\(line):\(column): \(message)"
    case .notLottie(let file, let missing):
      return "\(file): not a Lottie document (missing \(missing.map { "'\($0)'" }.joined(separator: ", ")))"
    case .missingKey(let file, let path, let key): return "\(file): \(path): missing required key '\(key)'"
    case .wrongType(let file, let path, let expected, let found):
      return "\(file): \(path): expected \(expected), found \(found)"
    case .invalidValue(let file, let path, let message): return "\(file): \(path): \(message)"
    case .precompCycle(let file, let path, let chain):
      return "\(file): \(path): precomposition contains itself (\(chain.joined(separator: " -> ")))"
    case .unknownAsset(let file, let path, let id): return "\(file): \(path): no asset with id '\(id)'"
    case .imageFailed(let file, let path, let message): return "\(file): \(path): \(message)"
    case .limitExceeded(let file, let path, let exceeded): return "\(file): \(path): \(exceeded)"
    case .expression(let file, let path, let message):
      return
        "\(file): \(path): expression: \(message) (--expressions fallback, LAMINA_EXPRESSIONS=fallback or LottieOptions.expressions = .fallBack keeps its keyframed value instead)"
    }
  }
}

/// The limits a Lottie document meets before it is built (see docs/limits.md
/// and docs/lottie.md). Defaults suit untrusted input on a server.
public struct LottieLimits: Equatable {
  public init() {}
  /// Layers in the document once every precomposition is expanded.
  public var maxLayers = 20_000
  /// Nesting of precompositions (a precomp layer inside a precomp …).
  public var maxPrecompDepth = 32
  /// Keyframes of one property (half of `Limits.maxKeyframes`: a hold
  /// keyframe becomes two keys of the animation).
  public var maxKeyframes = Limits.maxKeyframes / 2
  /// Vertices of one path (a bezier shape, a mask, a polystar's points).
  public var maxPathVertices = 10_000
  /// Repeater copies multiplied through nesting (a repeater of 100 in one of 100 makes 10,000).
  public var maxRepeaterCopies = 10_000
  /// Characters of one text layer.
  public var maxTextLength = Limits.maxGlyphsPerTextLayer
  /// Bytes of one data URI (the encoded text), checked before decoding.
  public var maxDataURIBytes = 64 << 20
  /// Frames between a document's `ip` and `op`.
  public var maxFrames = 1_000_000
  /// Frames sampled for one property the layer model cannot interpolate itself.
  public var maxSampledFrames = 5_000
  /// Sampled values of all properties together (bounds the memory of a
  /// document of many sampled properties).
  public var maxSampledValues = 1_000_000
  /// Path elements of all sampled paths together.
  public var maxSampledPathElements = 10_000_000
  /// Layers the shapes of all shape layers make (styles, groups, repeater
  /// copies), counted while building.
  public var maxShapeLayers = Limits.maxLayers
  /// Paths that fills and strokes draw, summed over all of them (a style
  /// draws every path above it: n paths and n styles in one group make n²/2).
  public var maxStyledPaths = 100_000
  /// CPU seconds of the process that evaluates a document's expressions
  /// (all of them, every frame); past it the kernel ends the process.
  public var expressionCPUSeconds = 10
  /// Address space of that process, in bytes.
  public var expressionMemoryBytes = 512 << 20
  /// Wall-clock seconds that process may take before it is killed.
  public var expressionWallSeconds = 30.0
  /// Bytes of one expression's source.
  public var maxExpressionBytes = 256 << 10
  /// Bytes of values the process may send back.
  public var maxExpressionOutputBytes = 256 << 20
}
