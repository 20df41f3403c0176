// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Lamina",
  products: [
    .library(name: "Lamina", targets: ["Lamina"]),
    .library(name: "LaminaScene", targets: ["LaminaScene"]),
    .library(name: "LaminaRender", targets: ["LaminaRender"]),
    .library(name: "LaminaDisplay", targets: ["LaminaDisplay"]),
    .library(name: "LaminaLottie", targets: ["LaminaLottie"]),
    .executable(name: "lamina", targets: ["lamina"]),
  ],
  targets: [
    // System libraries, found with pkg-config (Debian: see scripts/install-deps.sh).
    .systemLibrary(
      name: "CEGL", pkgConfig: "egl",
      providers: [.apt(["libegl1-mesa-dev", "libegl-mesa0", "libgl1-mesa-dri"])]),
    .systemLibrary(
      name: "CGLES3", pkgConfig: "glesv2", providers: [.apt(["libgles2-mesa-dev"])]),
    .systemLibrary(name: "CGBM", pkgConfig: "gbm", providers: [.apt(["libgbm-dev"])]),
    .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
    .systemLibrary(
      name: "CWayland", pkgConfig: "wayland-egl",
      providers: [.apt(["libwayland-dev", "wayland-protocols"])]),
    .systemLibrary(
      name: "CInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    // openat2(2) for FileAccessPolicy (kernel headers only: no library, no pkg-config).
    .systemLibrary(name: "CFileAccess"),
    .systemLibrary(
      name: "CPango", pkgConfig: "pangocairo",
      providers: [.apt(["libpango1.0-dev", "fonts-dejavu-core"])]),
    // dotLottie archives (zip) and Telegram stickers (gzip): LaminaLottie.
    .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

    // The public API: CALayer and its subclasses, CATransform3D, CGColor, CGImage, CGPath.
    .target(name: "Lamina", dependencies: ["CPNG", "CJPEG", "CWebP"]),
    // 2D drawing on the CPU with Cairo and Pango: shape and text rasterizing.
    .target(name: "LaminaDraw", dependencies: ["Lamina", "CCairo", "CPango"]),
    // The scene file format: decoding, key paths, errors.
    .target(name: "LaminaScene", dependencies: ["Lamina", "CFileAccess"]),
    // Lottie (Bodymovin) documents, dotLottie archives and .tgs stickers as
    // CALayer trees with CAAnimations (docs/lottie.md).
    .target(name: "LaminaLottie", dependencies: ["Lamina", "LaminaScene", "CZip", "CZlib"]),
    // Frame building (render tree, draw list, batching) and the GL backend.
    .target(
      name: "LaminaRender",
      dependencies: ["Lamina", "LaminaDraw", "CEGL", "CGLES3", "CGBM", "CDRM", "CPNG"],
      plugins: ["EmbedShaders"]),
    // Render jobs as the command runs them: documents (a scene or a Lottie
    // animation), one frame, a sequence or a video, the batch runner with
    // its memory budget and job lines (package access: not API).
    .target(
      name: "LaminaBatch",
      dependencies: ["Lamina", "LaminaScene", "LaminaRender", "LaminaLottie"]),
    // Client glue for xdg-shell, viewporter and fractional scale, made by
    // scripts/generate-wayland-protocols.sh (wayland-scanner).
    .target(name: "CWaylandProtocols", dependencies: ["CWayland"]),
    // `lamina show`: a scene on a screen, through KMS or as a Wayland window.
    .target(
      name: "LaminaDisplay",
      dependencies: [
        "Lamina", "LaminaScene", "LaminaRender", "CEGL", "CGLES3", "CGBM", "CDRM", "CWayland",
        "CWaylandProtocols", "CInput",
      ]),
    // The command: thin subcommands over the library.
    .executableTarget(
      name: "lamina",
      dependencies: [
        "Lamina", "LaminaScene", "LaminaRender", "LaminaDisplay", "LaminaLottie", "LaminaBatch",
      ]),
    // Generated tests: random scenes, metamorphic relations, the shrinker
    // (docs/metamorphic-testing.md), and the command that runs them long.
    .target(
      name: "LaminaMetamorphic", dependencies: ["Lamina", "LaminaScene", "LaminaRender"],
      resources: [.copy("images")]),
    .executableTarget(name: "lamina-metamorphic", dependencies: ["LaminaMetamorphic", "LaminaScene"]),

    // Turns Shaders/*.glsl into Swift string constants at build time.
    .executableTarget(name: "ShaderEmbedder", path: "Sources/ShaderEmbedder"),
    .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),

    .testTarget(name: "LaminaTests", dependencies: ["Lamina"]),
    .testTarget(
      name: "LaminaSceneTests", dependencies: ["LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaBatchTests", dependencies: ["LaminaBatch", "LaminaRender", "LaminaScene"]),
    .testTarget(
      name: "LaminaRenderTests",
      dependencies: [
        "LaminaRender", "LaminaScene", "LaminaDraw", "Lamina", "LaminaDisplay", "LaminaLottie",
        "CGLES3", "CEGL",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaDisplayTests",
      dependencies: ["LaminaDisplay", "LaminaScene", "LaminaRender", "Lamina"]),
    .testTarget(
      name: "LaminaLottieTests",
      dependencies: ["LaminaLottie", "LaminaRender", "LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaMetamorphicTests",
      dependencies: ["LaminaMetamorphic", "LaminaRender", "LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
  ],
  swiftLanguageModes: [.v5]
)
