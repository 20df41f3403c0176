import Foundation
import Lamina
import LaminaLottie
import LaminaRender
import XCTest

final class TmpFuzzTests: XCTestCase {
  func testFuzzFolder() throws {
    guard let dir = ProcessInfo.processInfo.environment["LOTTIE_FUZZ_DIR"] else { throw XCTSkip("no dir") }
    let render = ProcessInfo.processInfo.environment["LOTTIE_FUZZ_RENDER"] == "1"
    let renderer = render ? try Renderer() : nil
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
    var ok = 0
    var errors = 0
    for f in files {
      FileHandle.standardError.write("FILE \(f)\n".data(using: .utf8)!)
      do {
        let a = try LottieAnimation(contentsOf: URL(fileURLWithPath: dir + "/" + f))
        if let renderer {
          _ = try? renderer.render(layer: a.rootLayer, size: CGSize(width: min(a.width, 200), height: min(a.height, 200)), time: 0.3)
        }
        ok += 1
      } catch {
        errors += 1
      }
    }
    print("FUZZ ok \(ok) errors \(errors)")
  }
}
