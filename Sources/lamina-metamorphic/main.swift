import Foundation
import LaminaMetamorphic
import LaminaScene

// lamina-metamorphic: generated scenes against the metamorphic relations,
// for as many seeds or as long as asked. Findings are shrunk and written
// to a folder; the summary lists every failing seed.

// Progress lines as they happen, also when standard output is a file.
setvbuf(stdout, nil, _IOLBF, 0)

let usage = """
  usage: lamina-metamorphic [--count N | --duration SECONDS] [--seed FIRST] [--out DIR]
                            [--relations a,b,...] [--no-shrink] [--max-findings N]
                            [--fresh-every N]   (fresh-renderer on one seed in N, default 64:
                                                 each new renderer stays on the GL context)
         lamina-metamorphic --replay FINDING-FOLDER
         lamina-metamorphic --replay SCENE.json --relation NAME [--time T] [--seed S]
         lamina-metamorphic --compare A.json B.json [--time T]   (how two scenes' renderings differ)
         lamina-metamorphic --print SEED        (writes the scene of SEED to standard output)
         lamina-metamorphic --list              (the relations)
  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
var flags: Set<String> = []
let valued: Set<String> = [
  "--count", "--duration", "--seed", "--out", "--relations", "--max-findings", "--replay",
  "--relation", "--time", "--print", "--fresh-every",
]
var positional: [String] = []
while let argument = arguments.first {
  arguments.removeFirst()
  if valued.contains(argument) {
    guard let value = arguments.first else { fail("\(argument) needs a value\n\(usage)") }
    arguments.removeFirst()
    options[argument] = value
  } else if ["--no-shrink", "--list", "--compare", "--help", "-h"].contains(argument) {
    flags.insert(argument)
  } else if !argument.hasPrefix("-") {
    positional.append(argument)
  } else {
    fail("unknown argument \(argument)\n\(usage)")
  }
}

if flags.contains("--help") || flags.contains("-h") {
  print(usage)
  exit(0)
}
if flags.contains("--list") {
  for relation in Relation.all { print("\(relation.name): \(relation.summary)") }
  exit(0)
}
func number<T: LosslessStringConvertible>(_ key: String, _ type: T.Type) -> T? {
  guard let text = options[key] else { return nil }
  guard let value = T(text) else { fail("\(key) needs a number, found \(text)") }
  return value
}

if let seed = number("--print", UInt64.self) {
  print(SceneGenerator.generate(seed: seed).scene.serialized(), terminator: "")
  exit(0)
}

let harness: Harness
do {
  harness = try Harness()
} catch {
  fail("lamina-metamorphic: no renderer: \(error)")
}

func loadScene(_ path: String) -> JSON {
  let url = URL(fileURLWithPath: path)
  do {
    return try JSON.parse(String(contentsOf: url, encoding: .utf8))
  } catch {
    fail("\(url.lastPathComponent): \(error)")
  }
}

if flags.contains("--compare") {
  guard positional.count == 2 else { fail("--compare needs two scene files\n\(usage)") }
  harness.imageBase = URL(fileURLWithPath: positional[0]).deletingLastPathComponent()
  let time = number("--time", Double.self) ?? 0
  do {
    let a = try harness.render(loadScene(positional[0]), time: time, with: harness.renderer)
    let b = try harness.render(loadScene(positional[1]), time: time, with: harness.renderer)
    print(PixelDifference(a, b, threshold: 0))
  } catch {
    fail("\(error)")
  }
  exit(0)
}

if let replay = options["--replay"] {
  // A finding's folder, or a scene with --relation (checked after the
  // relations before it, as the runner checks it).
  var isFolder: ObjCBool = false
  let url = URL(fileURLWithPath: replay)
  let finding: KnownFinding
  if FileManager.default.fileExists(atPath: replay, isDirectory: &isFolder), isFolder.boolValue {
    do {
      finding = try KnownFinding(folder: url)
    } catch {
      fail("\(replay): \(error)")
    }
    // A finding saved by a run holds its images; one kept in the tests'
    // fixtures does not, and names this module's.
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("images").path) {
      harness.imageBase = url
    }
  } else {
    guard let name = options["--relation"],
      let relation = name == Runner.renderRelation ? Relation.all[0] : Relation.named(name)
    else {
      fail(
        "--replay SCENE.json needs --relation NAME (one of \(Relation.all.map(\.name).joined(separator: ", ")))"
      )
    }
    harness.imageBase = url.deletingLastPathComponent()
    finding = KnownFinding(
      relation: name,
      earlier: name == Runner.renderRelation
        ? [] : relation.predecessors(in: Relation.all).map(\.name),
      testCase: GeneratedCase(
        seed: number("--seed", UInt64.self) ?? 0, scene: loadScene(replay),
        time: number("--time", Double.self) ?? 0))
  }
  do {
    let fails = try finding.stillFails(harness)
    print("\(finding.relation) seed \(finding.testCase.seed): \(fails ? "FAILS" : "holds")")
    exit(fails ? 1 : 0)
  } catch {
    fail("\(error)")
  }
}

var relations = Relation.all
if let names = options["--relations"] {
  relations = names.split(separator: ",").map { name in
    guard let r = Relation.named(String(name)) else { fail("unknown relation \(name)") }
    return r
  }
}
let count = number("--count", Int.self)
let duration = number("--duration", Double.self)
if count == nil, duration == nil { fail("give --count N or --duration SECONDS\n\(usage)") }
let first = number("--seed", UInt64.self) ?? 1
let out = URL(fileURLWithPath: options["--out"] ?? "metamorphic-findings")

Relation.freshRendererEvery = max(1, number("--fresh-every", UInt64.self) ?? 64)
let runner = Runner(harness: harness, relations: relations)
runner.shrinks = !flags.contains("--no-shrink")
runner.maxFindingsPerRelation = number("--max-findings", Int.self) ?? 3
runner.findingsFolder = out
let started = Date()
print(
  "lamina-metamorphic: seeds from \(first), \(count.map { "\($0) cases" } ?? "") \(duration.map { "for \($0) s" } ?? ""), relations \(relations.map(\.name).joined(separator: ",")), findings in \(out.path)"
)
runner.run(first: first, count: count, deadline: duration.map { started.addingTimeInterval($0) })
print(runner.summary)
print(
  "seeds \(first)…\(first &+ UInt64(max(runner.cases, 1)) &- 1) in \(String(format: "%.0f", Date().timeIntervalSince(started))) s"
)
exit(runner.totalFailures == 0 ? 0 : 1)
