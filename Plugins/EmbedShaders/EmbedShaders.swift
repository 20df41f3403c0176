import Foundation
import PackagePlugin

/// Embeds every `Shaders/*.glsl` file of the package into the target as a
/// generated Swift source, so the binary carries the shaders without any
/// copying by hand. The build reruns the generator whenever a shader changes.
@main
struct EmbedShaders: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let shaders = context.package.directoryURL.appendingPathComponent("Shaders")
    let files = try FileManager.default.contentsOfDirectory(
      at: shaders, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "glsl" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedShaders.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) shaders",
        executable: try context.tool(named: "ShaderEmbedder").url,
        arguments: [output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}
