// swift-tools-version:6.0
import PackageDescription

// An app that embeds a Lamina display and updates it from a timer:
// `swift run` here shows a clock (Wayland window, KMS, or headless with
// CLOCK_HEADLESS=1).
let package = Package(
  name: "ClockKiosk",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "ClockKiosk",
      dependencies: [
        .product(name: "Lamina", package: "Lamina"),
        .product(name: "LaminaScene", package: "Lamina"),
        .product(name: "LaminaRender", package: "Lamina"),
        .product(name: "LaminaDisplay", package: "Lamina"),
      ])
  ],
  swiftLanguageModes: [.v5]
)
