import Foundation
import Lamina
import LaminaDisplay
import LaminaRender
import LaminaScene

// A clock: a scene file with a text layer `time` and a bar `seconds`; a
// timer on another thread changes them once a second through
// `DisplayLoop.schedule`, and the loop applies each change at its next
// frame boundary as one transaction: the bar grows over 0.5 s as Core
// Animation's implicit animation would.

let scene = """
  {"lamina": 1, "canvas": {"width": 640, "height": 360, "background": "#102030"},
   "root": {"sublayers": [
     {"name": "time", "class": "CATextLayer", "frame": [40, 120, 560, 80], "string": "--:--:--",
      "fontSize": 64, "foregroundColor": "#ffffff", "alignmentMode": "center"},
     {"name": "seconds", "frame": [40, 240, 0, 8], "anchorPoint": [0, 0.5],
      "backgroundColor": "#ff8000"}
   ]}}
  """
let url = FileManager.default.temporaryDirectory.appendingPathComponent("clock-kiosk.json")
try scene.write(to: url, atomically: true, encoding: .utf8)

let watcher = try SceneWatcher(url: url)
let output: DisplayOutput
if ProcessInfo.processInfo.environment["CLOCK_HEADLESS"] == "1" {
  output = try HeadlessOutput(width: 640, height: 360)
} else if ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil {
  output = try WaylandOutput.open(preferredWidth: 640, preferredHeight: 360)
} else {
  output = try KMSOutput.open(device: nil, connector: nil, mode: nil, rotation: .none)
}
defer { output.close() }
let renderer = try Renderer(context: output.context)
let loop = DisplayLoop(output: output, watcher: watcher, renderer: renderer)
loop.log = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

let formatter = DateFormatter()
formatter.dateFormat = "HH:mm:ss"
let timer = DispatchSource.makeTimerSource(queue: .global())
timer.schedule(deadline: .now(), repeating: 1)
timer.setEventHandler {
  let now = Date()
  let second = Calendar.current.component(.second, from: now)
  loop.schedule(duration: 0.5) { editor in
    (editor.layer(named: "time") as? CATextLayer)?.string = formatter.string(from: now)
    editor.layer(named: "seconds")?.bounds.size.width = CGFloat(second) / 59 * 560
  }
}
timer.resume()
try loop.run(stop: try StopSignal())
