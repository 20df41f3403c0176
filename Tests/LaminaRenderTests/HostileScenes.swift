import Foundation

/// Scenes that made `lamina render` or `lamina show` crash, hang or run out
/// of memory before issue 14 (the issue's classes and the fuzzer's
/// findings, shrunk), each with the start of the error it gives now. They
/// are rendered by `FindingsTests` and reloaded into a running display by
/// `ReloadTests` and `WaylandShowTests`.
enum HostileScenes {
  struct Case {
    /// What it is (a test names it).
    let name: String
    let json: String
    /// The error, after "lamina: " (a prefix of it when `exact` is false).
    let message: String
    var exact = true
    /// How the error ends, when `message` is only its start (a frame's
    /// errors name it "frame 3 (t=0.05 s)" in a sequence).
    var suffix: String? = nil
    /// Fails only at a frame's time (`time`), not at load.
    var time: Double? = nil
  }

  static let cases: [Case] = [
    Case(
      name: "shadowRadius 1e308 (trapped in CGRect.intersection)",
      json: #"""
        {"lamina": 1, "canvas": {"width": 100, "height": 80},
         "root": {"sublayers": [{"frame": [10, 10, 50, 40], "backgroundColor": "#ff0000",
           "shadowOpacity": 1, "shadowRadius": 1e308}]}}
        """#,
      message:
        "hostile.json: root.sublayers[0].shadowRadius: expected a number from -1000000000 to 1000000000 (maxMagnitude), found 1e+308"
    ),
    Case(
      name: "a blur radius an animation pushes past the limit at 2 s",
      json: #"""
        {"lamina": 1, "canvas": {"width": 100, "height": 80},
         "root": {"sublayers": [{"frame": [10, 10, 50, 40], "backgroundColor": "#ff0000",
           "shadowOpacity": 1, "animations": [{"keyPath": "shadowRadius", "fromValue": 0,
           "byValue": 300, "isCumulative": true, "duration": 1, "repeatCount": 5}]}]}}
        """#,
      message:
        "hostile.json: root.sublayers[0].shadowRadius at 2 s: shadowRadius must be finite and within ±500: 600, over the limit of 500 (maxBlurRadius)",
      time: 2),
    Case(
      name: "a replicator inside a replicator (1000 × 1000 instances)",
      json: #"""
        {"lamina": 1, "canvas": {"width": 100, "height": 80},
         "root": {"sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 1000,
           "sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 1000,
             "instanceTransform": [{"translate": [1, 0, 0]}],
             "sublayers": [{"frame": [0, 0, 2, 2], "backgroundColor": "#00ff00"}]}]}]}}
        """#,
      message:
        "hostile.json: root.sublayers[0].sublayers[0].instanceCount: replicator instances in the tree, multiplied through nesting: 1001000, over the limit of 100000 (maxInstances)"
    ),
    Case(
      name: "an emitter inside a replicator",
      json: #"""
        {"lamina": 1, "canvas": {"width": 100, "height": 80},
         "root": {"sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 1000,
           "sublayers": [{"class": "CAEmitterLayer", "birthRate": 100,
             "emitterCells": [{"birthRate": 100, "lifetime": 10}]}]}]}}
        """#,
      message:
        "hostile.json: root.sublayers[0].sublayers[0].birthRate: emitter particles alive at once (birth rate × lifetime, through nested cells and replicators): 100001000, over the limit of 100000 (maxParticles)"
    ),
    Case(
      name: "SVG path data with an enormous arc",
      json: #"""
        {"lamina": 1, "canvas": {"width": 100, "height": 80},
         "root": {"sublayers": [{"class": "CAShapeLayer", "frame": [0, 0, 100, 80],
           "path": "M 0 0 A 1e300 1e300 0 1 1 1e300 -1e300 Z", "strokeColor": "#000000"}]}}
        """#,
      message:
        "hostile.json: root.sublayers[0].path: bad SVG path data at offset 8: expected a coordinate within ±10000000 (maxCoordinate), found '1'"
    ),
    Case(
      name: "1100 filtered siblings (offscreen passes)",
      json: #"{"lamina": 1, "canvas": {"width": 100, "height": 80}, "root": {"sublayers": ["#
        + Array(
          repeating:
            // (A blur: color filters over solid colors need no pass now.)
            ##"{"frame": [1, 1, 4, 4], "backgroundColor": "#00ff00", "filters": [{"name": "CIGaussianBlur", "inputRadius": 1}]}"##,
          count: 1100
        ).joined(separator: ",") + "]}}",
      message: "hostile.json: frame", exact: false,
      suffix:
        "offscreen passes in one frame: more than 1024, over the limit of 1024 (maxOffscreenPasses); the largest pass is the filters of a layer at root.sublayers[0]"
    ),
    Case(
      // The fuzzer's finding slow-100-29: each shadow blurs its subtree,
      // nested shadows included, so the passes double at every level.
      name: "shadows nested 40 deep (fuzzer, seed 100)",
      json: #"{"lamina": 1, "canvas": {"width": 100, "height": 80}, "root": {"sublayers": ["#
        + String(
          repeating: #"{"shadowOpacity": 1, "shadowRadius": 40, "frame": [1, 1, 60, 60], "sublayers": ["#,
          count: 40) + ##"{"frame": [0, 0, 40, 40], "backgroundColor": "#ff00ff"}"##
        + String(repeating: "]}", count: 40) + "]}}",
      message: "hostile.json: frame", exact: false,
      suffix:
        "offscreen passes in one frame: more than 1024, over the limit of 1024 (maxOffscreenPasses); the largest pass is the shadow of a layer (blurred offscreen) at root.sublayers[0]"
    ),
    Case(
      // The fuzzer's finding slow-7-967: 2,000 closed-form shadows of radius
      // 100 inside a rasterized layer (which the walk did not enter) took
      // past the frame's time budget within every other limit.
      name: "2000 closed-form shadows in a rasterized layer (fuzzer, seed 7)",
      json: #"{"lamina": 1, "canvas": {"width": 240, "height": 110, "scale": 2}, "root": {"sublayers": [{"frame": [10, 10, 100, 90], "shouldRasterize": true, "rasterizationScale": 2, "sublayers": ["#
        + Array(
          repeating:
            ##"{"frame": [125, 104, 45, 80], "backgroundColor": "#3366cc", "shadowOpacity": 1, "shadowRadius": 100}"##,
          count: 2000
        ).joined(separator: ",") + "]}]}}",
      message: "hostile.json: frame", exact: false,
      suffix:
        "filtered pixels in one frame (pixels × filter stages): 3540672000, over the limit of 268435456 (maxFilteredPixels)"
    ),
    Case(
      name: "layers nested 101 deep",
      json: #"{"lamina": 1, "canvas": {"width": 100, "height": 80}, "root": "#
        + String(repeating: #"{"sublayers": ["#, count: 101) + "{}"
        + String(repeating: "]}", count: 101) + "}",
      message: "hostile.json: root.sublayers[0]", exact: false),
    Case(
      name: "a canvas of 16384 × 16384",
      json: #"{"lamina": 1, "canvas": {"width": 16384, "height": 16384}, "root": {}}"#,
      message:
        "hostile.json: canvas: canvas pixels (width × height × scale²): 268435456, over the limit of 67108864 (maxCanvasPixels)"
    ),
    Case(
      name: "a file cut short",
      json: #"{"lamina": 1, "canvas": {"width": 100, "height": 80}, "root": {"subl"#,
      message: "hostile.json:1:69: expected '\"' to end the string, found the end of the document"
    ),
    Case(
      name: "an empty file",
      json: "",
      message: "hostile.json:1:1: expected a value, found the end of the document"),
  ]
}
