import Foundation
import PackagePlugin

/// Embeds the built-in benchmark suite into `lamina`: the scenes of
/// `Benchmarks/scenes` with their images and the Lottie documents of
/// `Benchmarks/suite`, deflated (`SuiteEmbedder`), so that `lamina bench`
/// with no file runs them from any directory after an install.
@main
struct EmbedSuite: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = context.package.directoryURL.appendingPathComponent("Benchmarks")
    func files(_ folder: String, _ extensionName: String) throws -> [URL] {
      try FileManager.default.contentsOfDirectory(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil
      )
      .filter { $0.pathExtension == extensionName && $0.lastPathComponent != "manifest.json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
    let inputs =
      try files("scenes", "json") + files("scenes/images", "png") + files("suite", "json")
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSuite.swift")
    return [
      .buildCommand(
        displayName: "Embedding the benchmark suite (\(inputs.count) files)",
        executable: try context.tool(named: "SuiteEmbedder").url,
        arguments: [output.path, root.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
