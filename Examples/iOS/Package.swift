// swift-tools-version:6.0
import Foundation
import PackageDescription

// Small programs that use Lamina the way iOS books and tutorials teach Core
// Animation: each builds a layer tree, renders it at a moment with
// `Renderer.render(layer:size:scale:background:time:)` and writes a PNG
// (its path is the first argument). Tests/LaminaRenderTests/ExamplesTests
// builds this package, runs each program and compares its PNG with the
// golden in Goldens/.
//
// Lamina itself is the package two folders up; SwiftPM names a package by
// its folder, so the name is read from the path, whatever the checkout is
// called.
let lamina = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

func example(_ name: String, resources: [Resource]? = nil) -> Target {
  .executableTarget(
    name: name,
    dependencies: [
      .product(name: "Lamina", package: lamina), .product(name: "LaminaRender", package: lamina),
    ],
    resources: resources)
}

let package = Package(
  name: "LaminaExamples",
  dependencies: [.package(path: "../..")],
  targets: [
    example("Compass"),
    example("Cube"),
    example("Snowfall", resources: [.copy("snowflake.png")]),
    example("ActivityIndicator"),
    example("ProgressRing"),
    example("Shimmer"),
    example("CardFlip"),
    // The README's API example, exactly as printed there (a test checks).
    example("ReadmeExample"),
  ],
  swiftLanguageModes: [.v5]
)
