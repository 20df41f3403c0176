import Foundation

/// What an import leaves out (`LottieAnimation.unsupported`): one entry per
/// feature and JSON path, so a precomposition used many times reports once.
/// While part of the model is decoded, its reports are held (`collecting`)
/// and made when the builder builds that part, in building order.
final class ImportReports {
  private(set) var unsupported: [LottieUnsupported] = []
  private var reported: Set<[String]> = []
  private var held: [LottieUnsupported]?

  func report(_ feature: String, _ path: String) {
    if held != nil {
      held?.append(LottieUnsupported(feature: feature, path: path))
      return
    }
    guard reported.insert([feature, path]).inserted else { return }
    unsupported.append(LottieUnsupported(feature: feature, path: path))
  }

  /// `body`'s result, with the reports made while it ran put in `notes`
  /// instead of `unsupported`.
  func collecting<T>(into notes: inout [LottieUnsupported], _ body: () throws -> T) rethrows -> T {
    let saved = held
    held = []
    defer {
      notes = held ?? []
      held = saved
    }
    return try body()
  }
}
