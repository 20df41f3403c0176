import Foundation
import Lamina
import LaminaFrame

/// The name of a GPU object: a texture, sampler, buffer, vertex array,
/// framebuffer, renderbuffer or program. 0 names nothing (and, for a
/// framebuffer, the window's own).
package typealias GPUHandle = UInt32

/// Where a program's uniform is; -1 for one the program does not have
/// (setting it does nothing).
package typealias UniformLocation = Int32

/// One attribute of a vertex format: `count` components of `type` at
/// `offset` bytes into each vertex.
package struct VertexAttribute {
  package enum Kind {
    case float
    /// Bytes, read as 0…1 when `normalized`.
    case unsignedByte
  }

  package var index: GPUHandle
  package var count: Int32
  package var type: Kind
  package var normalized: Bool
  package var offset: Int

  package init(index: GPUHandle, count: Int32, type: Kind, normalized: Bool, offset: Int) {
    (self.index, self.count, self.type) = (index, count, type)
    (self.normalized, self.offset) = (normalized, offset)
  }
}

/// A program to link: two shader files of `Shaders/` by name, each
/// specialized by its defines (`NAME` or `NAME VALUE`, inserted after the
/// `#version` line). The device finds the sources.
package struct ProgramSource: Hashable {
  package var vertex: String
  package var fragment: String
  package var fragmentDefines: [String] = []
  package var vertexDefines: [String] = []

  package init(
    vertex: String, fragment: String, fragmentDefines: [String] = [], vertexDefines: [String] = []
  ) {
    (self.vertex, self.fragment) = (vertex, fragment)
    (self.fragmentDefines, self.vertexDefines) = (fragmentDefines, vertexDefines)
  }

  /// How errors name it: the two files and the defines.
  package var label: String {
    let defines = Array(Set(vertexDefines + fragmentDefines)).sorted()
    return "\(vertex) + \(fragment)" + (defines.isEmpty ? "" : " [" + defines.joined(separator: ", ") + "]")
  }
}

/// What the plan executor asks of a GPU: objects made and deleted, state
/// set, draws. Two implementations: `GLDevice` (LaminaGL, the only code that
/// calls GL) and `RecordingDevice` (this target), which runs the same plans
/// into a list of commands with the same state cache and counters, so
/// execution, caching, pooling and counts are tested without EGL.
///
/// State setters are cached by the device: a call that changes nothing
/// costs nothing and counts nothing (`DeviceState`).
package protocol GPUDevice: AnyObject {
  var counters: RenderCounters { get set }
  /// Debug groups around passes are wanted (a debug context).
  var debugOutput: Bool { get }
  /// The path program variants made on this device, shared by its renderers.
  var pathPrograms: PathPrograms { get }
  /// Bytes per texel of a gradient's colour ramp (float where the device
  /// filters float textures).
  var rampBytesPerTexel: Int { get }
  /// Whether the device has the extension `name`.
  func supports(_ name: String) -> Bool
  /// The order of the texels of the textures it makes from pixels and of
  /// its single-sampled targets (multisampled ones resolve into RGBA).
  var texelOrder: TexelOrder { get }

  // MARK: State (cached)

  func useProgram(_ id: GPUHandle)
  /// The program in use, as far as the cache knows.
  var program: GPUHandle? { get }
  func bindVertexArray(_ id: GPUHandle)
  func bindTexture(_ id: GPUHandle, unit: Int, sampler: GPUHandle)
  func bindFramebuffer(_ id: GPUHandle)
  func setViewport(_ rect: PixelRect)
  func setScissor(_ rect: PixelRect?)
  func setBlending(_ on: Bool, mode: BlendMode)
  func setDepthTest(_ on: Bool)
  /// Forgets what the cache knows (state was changed behind the device).
  func reset()

  // MARK: Uniforms of the program in use

  func setUniform(_ location: UniformLocation, _ x: Float)
  func setUniform(_ location: UniformLocation, _ x: Float, _ y: Float)
  func setUniform(_ location: UniformLocation, _ v: SIMD4<Float>)
  func setUniform(_ location: UniformLocation, int x: Int)
  func setUniform(_ location: UniformLocation, int x: Int, _ y: Int)
  func setUniform(_ location: UniformLocation, matrix3 columns: [Float])
  func setUniform(_ location: UniformLocation, matrix4Rows rows: [Float])
  func setUniform(_ location: UniformLocation, vec4Array values: [SIMD4<Float>])
  func setUniform(_ location: UniformLocation, vec3Array values: [Float])
  func setUniform(_ location: UniformLocation, floatArray values: [Float])

  // MARK: Drawing

  func clear(_ color: SIMD4<Float>)
  func clearDepth()
  func blendBarrier()
  func drawTriangles(indexCount: Int, firstIndex: Int)
  func drawTriangles(indexCount: Int, firstIndex: Int, instances: Int)
  /// One triangle over the whole viewport (filter passes, present).
  func drawFullTarget()
  func blit(from: GPUHandle, _ source: PixelRect, to: GPUHandle, _ destination: PixelRect)
  /// Reads `rect` of `framebuffer` as RGBA (or BGRA) bytes, rows
  /// `rowLength` pixels apart (0: tightly packed).
  func readPixels(
    _ rect: PixelRect, of framebuffer: GPUHandle, bgra: Bool, rowLength: Int,
    into buffer: UnsafeMutableRawPointer)

  // MARK: Objects

  func makeProgram(_ source: ProgramSource) throws -> GPUHandle
  func uniformLocation(_ program: GPUHandle, _ name: String) -> UniformLocation
  func deleteProgram(_ id: GPUHandle)
  /// A target's texture: in `texelOrder`, or RGBA when `multisampled`
  /// (it is resolved into from an RGBA renderbuffer).
  func makeTexture(width: Int, height: Int, multisampled: Bool) -> GPUHandle
  /// A texture of `pixels` (premultiplied, in `order`), in `texelOrder`.
  func uploadTexture(
    _ pixels: [UInt8], order: TexelOrder, width: Int, height: Int, mipmaps: Bool
  ) throws -> GPUHandle
  /// Replaces `width`×`height` texels of `texture` at (`x`, `y`) by
  /// `pixels` (premultiplied, in `order`, rows in texture order).
  func updateTexture(
    _ texture: GPUHandle, _ pixels: [UInt8], order: TexelOrder, x: Int, y: Int, width: Int,
    height: Int) throws
  func uploadRampTexture(_ texels: [Float], width: Int) throws -> GPUHandle
  func generateMipmaps(_ texture: GPUHandle)
  func deleteTexture(_ id: GPUHandle)
  func makeSampler(_ key: SamplerKey) -> GPUHandle
  func deleteSampler(_ id: GPUHandle)
  func makeFramebuffer(texture: GPUHandle, width: Int, height: Int) throws -> GPUHandle
  func makeMultisampledFramebuffer(width: Int, height: Int, samples: Int) throws -> (
    framebuffer: GPUHandle, renderbuffer: GPUHandle
  )
  func attachDepth(to framebuffer: GPUHandle, width: Int, height: Int, samples: Int) throws
    -> GPUHandle
  /// Attaches `renderbuffer` (0: none) as `framebuffer`'s depth, which is
  /// left bound.
  func setDepthAttachment(of framebuffer: GPUHandle, to renderbuffer: GPUHandle)
  func deleteFramebuffer(_ id: GPUHandle)
  func deleteRenderbuffer(_ id: GPUHandle)
  func makeVertexArray(stride: Int, attributes: [VertexAttribute]) -> (
    array: GPUHandle, vertices: GPUHandle, indices: GPUHandle
  )
  func makeEmptyVertexArray() -> GPUHandle
  func makeInstancedVertexArray(
    vertexBytes: UnsafeRawBufferPointer, indices: [UInt32], stride: Int,
    attributes: [VertexAttribute], instanceBuffer: GPUHandle, instanceStride: Int,
    instanceAttributes: [VertexAttribute]
  ) -> (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle)
  func upload<V>(
    _ data: [V], indices: [UInt32], array: GPUHandle, vertices: GPUHandle, elements: GPUHandle)
  func deleteVertexArray(_ id: GPUHandle, buffers: [GPUHandle])
  func makeBuffer() -> GPUHandle
  func uploadStream<V>(_ data: [V], to buffer: GPUHandle)
  func deleteBuffer(_ id: GPUHandle)
  /// A texture of a dma-buf frame (an EGL image where the device has one).
  func texture(forDMABuf frame: DMABufFrame) throws -> GPUHandle

  // MARK: Checks

  /// After a pass: the device's errors, and (in the check mode) its cache
  /// against the real state.
  func verify(_ label: @autoclosure () -> String) throws
  func check(_ label: @autoclosure () -> String) throws
  func pushDebugGroup(_ name: String)
  func popDebugGroup()
}

extension GPUDevice {
  package func setBlending(_ on: Bool) { setBlending(on, mode: .sourceOver) }

  package func readPixels(
    _ rect: PixelRect, of framebuffer: GPUHandle, into buffer: UnsafeMutableRawPointer
  ) {
    readPixels(rect, of: framebuffer, bgra: false, rowLength: 0, into: buffer)
  }
}
