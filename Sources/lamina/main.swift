import Foundation

// lamina: render, inspect and benchmark Lamina scenes. Each subcommand lives
// in its own file and only parses arguments before calling the library.

let usage = """
  usage: lamina render SCENE.json -o OUT.png [--time SECONDS] [--scale S] [--dump-plan]
         lamina render SCENE.json --frames FIRST..LAST [--fps 60] [--scale S]
                       (-o 'out/frame-%04d.png' | --video OUT.y4m | --video -) [--dump-plan]
         lamina show SCENE.json [--wayland | --kms] [--drm /dev/dri/cardN] [--connector NAME]
                     [--mode WxH[@HZ]] [--rotate 0|90|180|270] [--show-damage] [--events]
                     [--stats] [--frames N] [--duration SECONDS]
         lamina info [--json]
         lamina bench SCENE.json [--frames N] [--warmup N] [--start SECONDS] [--fps F]
                                 [--size WxH] [--json]
  """

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "render": status = runRender(Array(arguments.dropFirst()))
case "show": status = runShow(Array(arguments.dropFirst()))
case "info": status = runInfo(Array(arguments.dropFirst()))
case "bench": status = runBench(Array(arguments.dropFirst()))
case "-h", "--help", "help":
  print(usage)
  status = 0
default:
  printError(arguments.first.map { "unknown command '\($0)'\n" + usage } ?? usage)
  status = 2
}
exit(status)
