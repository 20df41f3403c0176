import CGLES3
import Foundation
import Lamina
import LaminaFrame
import LaminaPlan

/// The GL device as the plan executor sees it (`GPUDevice`): what GL has
/// beyond the calls themselves, the shaders' sources and dma-buf imports.
extension GLDevice: GPUDevice {
  package var debugOutput: Bool { context?.debugOutput ?? false }

  /// Links the program of `source`: the files of `Shaders/` (embedded), each
  /// stage specialized by its defines after its `#version` line.
  package func makeProgram(_ source: ProgramSource) throws -> GLuint {
    func specialized(_ name: String, _ defines: [String]) throws -> String {
      var text = try ShaderLibrary.source(name)
      if !defines.isEmpty, let end = text.firstIndex(of: "\n") {
        text.insert(
          contentsOf: "\n" + defines.map { "#define " + $0 }.joined(separator: "\n"), at: end)
      }
      return text
    }
    let program = try makeProgram(
      vertex: specialized(source.vertex, source.vertexDefines),
      fragment: specialized(source.fragment, source.fragmentDefines), name: source.label)
    DrawProfile.name(
      program, ([source.fragment] + source.fragmentDefines).joined(separator: " "))
    return program
  }

  package func texture(forDMABuf frame: DMABufFrame) throws -> GLuint {
    guard let context else { throw RendererError.contextLost(reason: "the GL context is gone") }
    if dmabufImport == nil { dmabufImport = DMABufImport(display: context.display, device: self) }
    guard let dmabufImport else { throw RendererError.contextLost(reason: "no dma-buf import") }
    return try dmabufImport.texture(for: frame, context: context)
  }
}

extension VertexAttribute.Kind {
  /// The GL type of the attribute's components.
  var glType: GLenum {
    switch self {
    case .float: return GLenum(GL_FLOAT)
    case .unsignedByte: return GLenum(GL_UNSIGNED_BYTE)
    }
  }
}
