import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// What drawing path items (`PlanExecutor+Paths.swift`) needs of GL beyond
/// the quads: a depth attachment per target, the depth test, instanced
/// vertex arrays over meshes kept on the GPU, and instanced draws.
extension GLDevice {
  /// A depth renderbuffer (24 bits, `samples` per pixel) attached to
  /// `framebuffer`, which is left bound.
  package func attachDepth(to framebuffer: GLuint, width: Int, height: Int, samples: Int) throws -> GLuint {
    var buffer: GLuint = 0
    glGenRenderbuffers(1, &buffer)
    bindRenderbuffer(buffer)
    if samples > 1 {
      glRenderbufferStorageMultisample(
        GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_DEPTH_COMPONENT24), GLsizei(width),
        GLsizei(height))
    } else {
      glRenderbufferStorage(
        GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH_COMPONENT24), GLsizei(width), GLsizei(height))
    }
    bindFramebuffer(framebuffer)
    glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), buffer)
    let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      deleteRenderbuffer(buffer)
      throw RendererError.incompleteFramebuffer(status: Int(status), width: width, height: height)
    }
    return buffer
  }

  package func setDepthAttachment(of framebuffer: GLuint, to renderbuffer: GLuint) {
    bindFramebuffer(framebuffer)
    glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), renderbuffer)
  }

  /// Clears the whole depth buffer of the bound draw framebuffer to 0 (the
  /// scissor lifted for it).
  package func clearDepth() {
    let scissored = scissorTest
    if scissored != false { glDisable(GLenum(GL_SCISSOR_TEST)) }
    glDepthMask(GLboolean(GL_TRUE))
    glClearDepthf(0)
    glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
    // Back as it was (unknown becomes known: off).
    if scissored == true { glEnable(GLenum(GL_SCISSOR_TEST)) } else { scissorTest = false }
  }

  /// The depth test of path items: a fragment passes where the depth buffer
  /// holds a lower level, and writes its own; or off.
  package func setDepthTest(_ on: Bool) { state.setDepthTest(on, &counters, issue) }

  /// A vertex array over a new static vertex buffer (`vertexBytes`, read by
  /// `attributes` at `stride`) and element buffer (`indices`), whose
  /// `instanceAttributes` read `instanceBuffer` once per instance.
  package func makeInstancedVertexArray(
    vertexBytes: UnsafeRawBufferPointer, indices: [UInt32], stride: Int, attributes: [VertexAttribute],
    instanceBuffer: GLuint, instanceStride: Int, instanceAttributes: [VertexAttribute]
  ) -> (array: GLuint, vertices: GLuint, indices: GLuint) {
    var array: GLuint = 0
    glGenVertexArrays(1, &array)
    bindVertexArray(array)
    var buffers = [GLuint](repeating: 0, count: 2)
    glGenBuffers(2, &buffers)
    bindArrayBuffer(buffers[0])
    glBufferData(
      GLenum(GL_ARRAY_BUFFER), vertexBytes.count, vertexBytes.baseAddress, GLenum(GL_STATIC_DRAW))
    bindElementBuffer(buffers[1])
    indices.withUnsafeBytes { raw in
      glBufferData(
        GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STATIC_DRAW))
    }
    func point(_ a: VertexAttribute, _ stride: Int) {
      glEnableVertexAttribArray(a.index)
      glVertexAttribPointer(
        a.index, a.count, a.type.glType, GLboolean(a.normalized ? GL_TRUE : GL_FALSE),
        GLsizei(stride), UnsafeRawPointer(bitPattern: a.offset))
    }
    for a in attributes { point(a, stride) }
    bindArrayBuffer(instanceBuffer)
    for a in instanceAttributes {
      point(a, instanceStride)
      glVertexAttribDivisor(a.index, 1)
    }
    counters.bufferUploads += 2
    return (array, buffers[0], buffers[1])
  }

  /// A new buffer object (filled by `uploadStream`).
  package func makeBuffer() -> GLuint {
    var buffer: GLuint = 0
    glGenBuffers(1, &buffer)
    return buffer
  }

  package func deleteBuffer(_ id: GLuint) {
    guard id != 0 else { return }
    onOwnContext {
      var buffer = id
      glDeleteBuffers(1, &buffer)
      state.deleted(buffer: id)
    }
  }

  /// Fills `buffer` with `data`, drawn from a few times.
  package func uploadStream<V>(_ data: [V], to buffer: GLuint) {
    bindArrayBuffer(buffer)
    timed(\.uploads) {
      data.withUnsafeBytes { raw in
        glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
    }
    counters.bufferUploads += 1
  }

  /// `instances` instanced draws of `indexCount` indices from `firstIndex`.
  package func drawTriangles(indexCount: Int, firstIndex: Int, instances: Int) {
    let draw = {
      glDrawElementsInstanced(
        GLenum(GL_TRIANGLES), GLsizei(indexCount), GLenum(GL_UNSIGNED_INT),
        UnsafeRawPointer(bitPattern: firstIndex * MemoryLayout<UInt32>.size), GLsizei(instances))
    }
    counters.drawCalls += 1
    if DrawProfile.isOn { return DrawProfile.measure(program, draw) }
    timed(\.draws, draw)
  }

  /// Sets a `vec3` array uniform from consecutive triples.
  package func setUniform(_ location: GLint, vec3Array values: [Float]) {
    timed(\.state) { glUniform3fv(location, GLsizei(values.count / 3), values) }
  }
}
