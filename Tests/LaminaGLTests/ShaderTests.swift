import Foundation
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

final class ShaderTests: XCTestCase {
  /// The binary's embedded shaders are exactly the files in Shaders/.
  func testEmbeddedShadersMatchFiles() throws {
    let folder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Shaders")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".glsl") }.sorted()
    XCTAssertFalse(files.isEmpty)
    XCTAssertEqual(files, ShaderLibrary.sources.keys.sorted(), "embedded set differs from Shaders/")
    for name in files {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      XCTAssertEqual(ShaderLibrary.sources[name], text, "embedded \(name) drifted from the file")
    }
  }

  /// Every fragment shader compiles and links with its vertex shader.
  func testShadersCompile() throws {
    _ = try GPUContext.shared().makeCurrent()
    for name in ShaderLibrary.sources.keys where name.hasSuffix(".frag.glsl") {
      XCTAssertNoThrow(
        try ShaderProgramCheck.compile(
          vertex: ShaderLibrary.vertexShader(forFragment: name), fragment: name), name)
    }
  }

  func testBrokenShaderReportsItsLog() throws {
    _ = try GPUContext.shared().makeCurrent()
    XCTAssertThrowsError(
      try ShaderProgramCheck.compile(
        source: "#version 300 es\nvoid main() { nope; }", kind: .fragment)
    ) { error in
      guard case RendererError.shaderCompilation(let name, let log) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(name, "<source>")
      XCTAssertTrue(log.contains("nope"), log)
    }
  }
}
