import Foundation
import LaminaLottie
import LaminaOutput

/// `--expressions evaluate|fallback|keyframed`, of every command that
/// imports Lottie documents (`render`, `batch`, `show`, `bench`, `info`):
/// what the import does with After Effects expressions (docs/lottie.md,
/// "Expressions"; their limits in docs/limits.md).
enum ExpressionOptions {
  static let valued: Set<String> = ["--expressions"]

  /// Their lines in a subcommand's usage.
  static let usage = """
      --expressions POLICY    what a Lottie document's expressions do: evaluate
                              (the default; one that fails or runs past its limits
                              fails the load, naming its JSON path), fallback (one
                              that fails keeps its keyframed value, with a warning),
                              or keyframed (none run); LAMINA_EXPRESSIONS sets the
                              default
    """

  /// The policy the option names, nil when it is absent; another name is a
  /// usage error.
  static func policy(_ options: Options) throws -> LottieExpressionPolicy? {
    guard let name = options.string("--expressions") else { return nil }
    guard let policy = LottieExpressionPolicy(named: name) else {
      throw UsageError(
        "--expressions expects evaluate, fallback or keyframed, got '\(name)'")
    }
    return policy
  }
}
