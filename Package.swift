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
    .executable(name: "lamina-expr", targets: ["lamina-expr"]),
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
    // PNG encoding: libspng (zlib's deflate, the level and row filters chosen).
    .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    // FreeType's anti-aliasing rasterizer fills paths drawn on the CPU.
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    // openat2(2) for FileAccessPolicy (kernel headers only: no library, no pkg-config).
    .systemLibrary(name: "CFileAccess"),
    // mallopt(3) for the long-running commands (glibc's headers only).
    .systemLibrary(name: "CMalloc"),
    .systemLibrary(
      name: "CPango", pkgConfig: "pangocairo",
      providers: [.apt(["libpango1.0-dev", "fonts-dejavu-core"])]),
    // Font metrics and tables for Core Text (Lamina), under Pango.
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    // dotLottie archives (zip) and Telegram stickers (gzip): LaminaLottie.
    .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // Duktape, the JavaScript engine Lottie expressions run in (lamina-expr only).
    .systemLibrary(name: "CDuktape", pkgConfig: "duktape", providers: [.apt(["duktape-dev"])]),

    // The public API: CALayer and its subclasses, CATransform3D, CGColor, CGImage, CGPath.
    // Core Text lays text out and measures fonts with Pango and HarfBuzz.
    .target(
      name: "Lamina", dependencies: ["CPNG", "CJPEG", "CWebP", "CPango", "CCairo", "CHarfBuzz"]),
    // 2D drawing on the CPU with Cairo and Pango: shape and text rasterizing.
    .target(name: "LaminaDraw", dependencies: ["Lamina", "CCairo", "CPango", "CFreeType"]),
    // The scene file format: decoding, key paths, errors.
    .target(name: "LaminaScene", dependencies: ["Lamina", "CFileAccess"]),
    // Lottie (Bodymovin) documents, dotLottie archives and .tgs stickers as
    // CALayer trees with CAAnimations (docs/lottie.md).
    .target(name: "LaminaLottie", dependencies: ["Lamina", "LaminaScene", "CZip", "CZlib"]),
    // Lottie expressions in a child process of their own: Duktape under CPU,
    // memory and seccomp limits, run by LaminaLottie (docs/lottie.md).
    .executableTarget(name: "lamina-expr", dependencies: ["CDuktape"]),
    // The render stages, each a target the compiler keeps apart (model →
    // frame → plan → GL); docs/rendering.md.
    // Frame building: render tree, 3D contexts, depth sorting, the draw
    // list, path geometry. No GL.
    .target(name: "LaminaFrame", dependencies: ["Lamina", "LaminaDraw"]),
    // Planning: passes, targets, batches, vertices, and the plan executor
    // over a GPU device interface (and a recording device). No GL.
    .target(name: "LaminaPlan", dependencies: ["Lamina", "LaminaDraw", "LaminaFrame"]),
    // The only GL, EGL and GBM code: the device, programs, textures,
    // targets, EGL contexts and images.
    .target(
      name: "LaminaGL",
      dependencies: ["Lamina", "LaminaDraw", "LaminaFrame", "LaminaPlan", "CEGL", "CGLES3", "CGBM"],
      plugins: ["EmbedShaders"]),
    // Outputs: PNG, image sequences, Y4M and video files.
    .target(name: "LaminaOutput", dependencies: ["Lamina", "LaminaFrame", "CSPNG"]),
    // The Renderer facade over the stages.
    .target(
      name: "LaminaRender",
      dependencies: [
        "Lamina", "LaminaDraw", "LaminaFrame", "LaminaPlan", "LaminaGL", "LaminaOutput",
      ]),
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
        "Lamina", "LaminaScene", "LaminaRender", "LaminaFrame", "LaminaPlan", "LaminaGL", "CDRM", "CWayland",
        "CWaylandProtocols", "CInput",
      ]),
    // The command: thin subcommands over the library. It depends on
    // lamina-expr so that building the command builds the helper its
    // Lottie imports run expressions in (found beside it).
    .executableTarget(
      name: "lamina",
      dependencies: [
        "Lamina", "LaminaScene", "LaminaPlan", "LaminaRender", "LaminaDisplay", "LaminaLottie",
        "LaminaBatch", "CZlib", "CMalloc", "lamina-expr",
      ],
      plugins: ["EmbedSuite"]),
    // Generated tests: random scenes, metamorphic relations, the shrinker
    // (docs/metamorphic-testing.md), and the command that runs them long.
    .target(
      name: "LaminaMetamorphic", dependencies: ["Lamina", "LaminaScene", "LaminaRender"],
      resources: [.copy("images")]),
    .executableTarget(name: "lamina-metamorphic", dependencies: ["LaminaMetamorphic", "LaminaScene"]),

    // Turns Shaders/*.glsl into Swift string constants at build time.
    .executableTarget(name: "ShaderEmbedder", path: "Sources/ShaderEmbedder"),
    .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),
    // Deflates the benchmark scenes into `lamina` at build time (the built-in suite).
    .executableTarget(name: "SuiteEmbedder", dependencies: ["CZlib"], path: "Sources/SuiteEmbedder"),
    .plugin(name: "EmbedSuite", capability: .buildTool(), dependencies: ["SuiteEmbedder"]),

    .testTarget(name: "LaminaTests", dependencies: ["Lamina"]),
    // Core Text drawn by layers, against Pango's own layout of the same text.
    .testTarget(
      name: "LaminaCoreTextTests",
      dependencies: ["Lamina", "LaminaDraw", "LaminaRender", "CPango", "CCairo"]),
    .testTarget(
      name: "LaminaSceneTests", dependencies: ["LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaBatchTests",
      dependencies: [
        "LaminaFrame", "LaminaPlan", "LaminaGL", "LaminaOutput", "LaminaBatch", "LaminaRender",
        "LaminaScene", "LaminaTestSupport",
      ]),
    // What several test targets share (layers for trees); only tests use it.
    .target(
      name: "LaminaTestSupport",
      dependencies: ["Lamina", "LaminaDraw", "LaminaFrame", "LaminaPlan", "LaminaScene"],
      path: "Tests/LaminaTestSupport"),
    // A test target per stage; each runs alone (`swift test --filter
    // LaminaFrameTests`). The frame and plan tests link no EGL, GLES or GBM.
    .testTarget(
      name: "LaminaFrameTests",
      dependencies: ["LaminaTestSupport", "LaminaFrame", "LaminaScene", "LaminaDraw", "Lamina"]),
    .testTarget(
      name: "LaminaGLTests",
      dependencies: [
        "LaminaTestSupport", "LaminaGL", "LaminaRender", "LaminaOutput", "LaminaPlan", "LaminaFrame",
        "Lamina", "CEGL", "CGLES3",
      ]),
    .testTarget(name: "LaminaOutputTests", dependencies: ["LaminaOutput", "LaminaFrame", "Lamina"]),
    .testTarget(
      name: "LaminaDisplayTests",
      dependencies: [
        "LaminaTestSupport", "LaminaDisplay", "LaminaScene", "LaminaRender", "LaminaGL", "LaminaFrame",
        "Lamina", "CGLES3",
      ]),
    .testTarget(name: "LaminaDrawTests", dependencies: ["LaminaDraw", "Lamina", "CCairo"]),
    // The plan executor on the recording device: no EGL, GLES or GBM here.
    .testTarget(
      name: "LaminaPlanTests",
      dependencies: ["LaminaTestSupport", "LaminaPlan", "LaminaFrame", "LaminaScene", "LaminaDraw", "Lamina"]),
    .testTarget(
      name: "LaminaRenderTests",
      dependencies: ["LaminaTestSupport", "LaminaFrame", "LaminaPlan", "LaminaGL", "LaminaOutput", 
        "LaminaRender", "LaminaScene", "LaminaDraw", "Lamina", "LaminaDisplay", "LaminaLottie",
        "CGLES3", "CEGL",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaLottieTests",
      dependencies: ["LaminaTestSupport", "LaminaFrame", "LaminaPlan", "LaminaGL", "LaminaOutput", "LaminaLottie", "LaminaRender", "LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LaminaMetamorphicTests",
      dependencies: ["LaminaFrame", "LaminaPlan", "LaminaGL", "LaminaOutput", "LaminaMetamorphic", "LaminaRender", "LaminaScene", "Lamina"],
      resources: [.copy("Fixtures")]),
  ],
  swiftLanguageModes: [.v5]
)
