import Foundation
import Lamina
import LaminaFrame

/// A GPU device that draws nothing: it runs plans into a list of commands,
/// with the GL device's state cache (`DeviceState`) and counters, making
/// the same binds where GL makes them (an upload binds its texture, a
/// blit its framebuffers), so what a frame costs in draws, passes, state
/// changes and uploads is the same here as on GL. The executor, its pools
/// and caches run on it unchanged: tests of execution need no EGL.
package final class RecordingDevice: GPUDevice {
  /// What a device object is.
  package enum ObjectKind: Hashable, CaseIterable {
    case texture, sampler, framebuffer, renderbuffer, vertexArray, buffer, program
  }

  /// One command the device was given (state calls only where the cache
  /// made them).
  package enum Command: Equatable {
    case state(StateCall)
    case uniform(UniformLocation)
    case clear(SIMD4<Float>)
    case clearDepth
    case blendBarrier
    case draw(indexCount: Int, firstIndex: Int, instances: Int)
    case drawFullTarget
    case blit(from: GPUHandle, PixelRect, to: GPUHandle, PixelRect)
    case readPixels(PixelRect, of: GPUHandle)
    case make(ObjectKind, GPUHandle)
    case delete(ObjectKind, GPUHandle)
    /// Data sent to an object.
    case upload(ObjectKind, GPUHandle, bytes: Int)
    case pushDebugGroup(String)
    case popDebugGroup
  }

  package var counters = RenderCounters()
  package var state = DeviceState()
  package private(set) var commands: [Command] = []
  /// Objects made and not deleted, by kind.
  package private(set) var live: [ObjectKind: Set<GPUHandle>] = [:]
  /// Programs by what they were linked from.
  package private(set) var programSources: [GPUHandle: ProgramSource] = [:]
  package let debugOutput: Bool
  package let rampBytesPerTexel: Int
  /// RGBA unless a test asks for llvmpipe's BGRA.
  package var texelOrder = TexelOrder.rgba
  private let extensions: Set<String>
  private var nextHandle: GPUHandle = 1
  private var uniforms: [String: UniformLocation] = [:]
  package lazy var pathPrograms = PathPrograms(device: self)

  /// A device with `extensions` (the advanced blend equations by default,
  /// as Mesa's llvmpipe has them).
  package init(
    extensions: Set<String> = ["GL_KHR_blend_equation_advanced", "GL_OES_texture_float_linear"],
    debugOutput: Bool = false
  ) {
    self.extensions = extensions
    self.debugOutput = debugOutput
    rampBytesPerTexel = extensions.contains("GL_OES_texture_float_linear") ? 16 : 8
  }

  /// Forgets the commands recorded so far (counters and objects stay).
  package func clearCommands() { commands.removeAll(keepingCapacity: true) }

  package func supports(_ name: String) -> Bool { extensions.contains(name) }

  private func record(_ command: Command) { commands.append(command) }

  private func issue(_ call: StateCall) { commands.append(.state(call)) }

  private func make(_ kind: ObjectKind) -> GPUHandle {
    let handle = nextHandle
    nextHandle += 1
    live[kind, default: []].insert(handle)
    record(.make(kind, handle))
    return handle
  }

  private func delete(_ kind: ObjectKind, _ handle: GPUHandle) {
    guard handle != 0 else { return }
    live[kind]?.remove(handle)
    record(.delete(kind, handle))
  }

  // MARK: State

  package var program: GPUHandle? { state.program }
  package func useProgram(_ id: GPUHandle) { state.useProgram(id, &counters, issue) }
  package func bindVertexArray(_ id: GPUHandle) { state.bindVertexArray(id, &counters, issue) }
  package func bindTexture(_ id: GPUHandle, unit: Int, sampler: GPUHandle) {
    state.bindTexture(id, unit: unit, sampler: sampler, &counters, issue)
  }
  package func bindFramebuffer(_ id: GPUHandle) { state.bindFramebuffer(id, &counters, issue) }
  package func setViewport(_ rect: PixelRect) { state.setViewport(rect, &counters, issue) }
  package func setScissor(_ rect: PixelRect?) { state.setScissor(rect, &counters, issue) }
  package func setBlending(_ on: Bool, mode: BlendMode) {
    state.setBlending(on, mode: mode, &counters, issue)
  }
  package func setDepthTest(_ on: Bool) { state.setDepthTest(on, &counters, issue) }
  package func reset() { state = DeviceState() }

  // MARK: Uniforms

  package func setUniform(_ location: UniformLocation, _ x: Float) { record(.uniform(location)) }
  package func setUniform(_ location: UniformLocation, _ x: Float, _ y: Float) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, _ v: SIMD4<Float>) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, int x: Int) { record(.uniform(location)) }
  package func setUniform(_ location: UniformLocation, int x: Int, _ y: Int) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, matrix3 columns: [Float]) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, matrix4Rows rows: [Float]) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, vec4Array values: [SIMD4<Float>]) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, vec3Array values: [Float]) {
    record(.uniform(location))
  }
  package func setUniform(_ location: UniformLocation, floatArray values: [Float]) {
    record(.uniform(location))
  }

  // MARK: Drawing

  package func clear(_ color: SIMD4<Float>) {
    state.setClearColor(color, &counters, issue)
    record(.clear(color))
  }

  package func clearDepth() {
    // GL lifts the scissor for it and puts it back (unknown becomes off).
    if state.scissorTest == nil { state.scissorTest = false }
    record(.clearDepth)
  }

  package func blendBarrier() { record(.blendBarrier) }

  package func drawTriangles(indexCount: Int, firstIndex: Int) {
    record(.draw(indexCount: indexCount, firstIndex: firstIndex, instances: 1))
    counters.drawCalls += 1
  }

  package func drawTriangles(indexCount: Int, firstIndex: Int, instances: Int) {
    record(.draw(indexCount: indexCount, firstIndex: firstIndex, instances: instances))
    counters.drawCalls += 1
  }

  package func drawFullTarget() {
    record(.drawFullTarget)
    counters.drawCalls += 1
  }

  package func blit(from: GPUHandle, _ source: PixelRect, to: GPUHandle, _ destination: PixelRect)
  {
    state.bindReadFramebuffer(from, &counters, issue)
    state.bindDrawFramebuffer(to, &counters, issue)
    setScissor(nil)
    record(.blit(from: from, source, to: to, destination))
  }

  package func readPixels(
    _ rect: PixelRect, of framebuffer: GPUHandle, bgra: Bool, rowLength: Int,
    into buffer: UnsafeMutableRawPointer
  ) {
    state.bindReadFramebuffer(framebuffer, &counters, issue)
    state.setPack(rowLength: rowLength, &counters, issue)
    let stride = rowLength > 0 ? rowLength : rect.width
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: max(0, stride * rect.height * 4))
    record(.readPixels(rect, of: framebuffer))
  }

  // MARK: Objects

  package func makeProgram(_ source: ProgramSource) throws -> GPUHandle {
    let program = make(.program)
    programSources[program] = source
    // GL leaves a new program in use, its samplers set.
    useProgram(program)
    return program
  }

  /// Every uniform exists, at a location of its own per name.
  package func uniformLocation(_ program: GPUHandle, _ name: String) -> UniformLocation {
    if let location = uniforms[name] { return location }
    let location = UniformLocation(uniforms.count)
    uniforms[name] = location
    return location
  }

  package func deleteProgram(_ id: GPUHandle) {
    delete(.program, id)
    if state.program == id { state.program = nil }
  }

  package func makeTexture(width: Int, height: Int, multisampled: Bool) -> GPUHandle {
    let texture = make(.texture)
    state.bindTextureForEditing(texture, &counters, issue)
    return texture
  }

  package func updateTexture(
    _ texture: GPUHandle, _ pixels: [UInt8], order: TexelOrder, x: Int, y: Int, width: Int,
    height: Int
  ) throws {
    state.bindTextureForEditing(texture, &counters, issue)
    state.setUnpackAlignment(4, &counters, issue)
    record(.upload(.texture, texture, bytes: pixels.count))
    counters.textureUploads += 1
  }

  package func uploadTexture(
    _ pixels: [UInt8], order: TexelOrder, width: Int, height: Int, mipmaps: Bool
  ) throws -> GPUHandle {
    let texture = make(.texture)
    state.bindTextureForEditing(texture, &counters, issue)
    state.setUnpackAlignment(4, &counters, issue)
    record(.upload(.texture, texture, bytes: pixels.count))
    counters.textureUploads += 1
    return texture
  }

  package func uploadRampTexture(_ texels: [Float], width: Int) throws -> GPUHandle {
    let texture = make(.texture)
    state.bindTextureForEditing(texture, &counters, issue)
    state.setUnpackAlignment(4, &counters, issue)
    record(.upload(.texture, texture, bytes: width * rampBytesPerTexel))
    counters.textureUploads += 1
    counters.rampUploads += 1
    return texture
  }

  package func generateMipmaps(_ texture: GPUHandle) {
    state.bindTextureForEditing(texture, &counters, issue)
  }

  package func deleteTexture(_ id: GPUHandle) {
    delete(.texture, id)
    state.deleted(texture: id)
  }

  package func makeSampler(_ key: SamplerKey) -> GPUHandle { make(.sampler) }

  package func deleteSampler(_ id: GPUHandle) {
    delete(.sampler, id)
    state.deleted(sampler: id)
  }

  package func makeFramebuffer(texture: GPUHandle, width: Int, height: Int) throws -> GPUHandle {
    let framebuffer = make(.framebuffer)
    bindFramebuffer(framebuffer)
    return framebuffer
  }

  package func makeMultisampledFramebuffer(width: Int, height: Int, samples: Int) throws -> (
    framebuffer: GPUHandle, renderbuffer: GPUHandle
  ) {
    let renderbuffer = make(.renderbuffer)
    state.bindRenderbuffer(renderbuffer, &counters, issue)
    let framebuffer = make(.framebuffer)
    bindFramebuffer(framebuffer)
    return (framebuffer, renderbuffer)
  }

  package func attachDepth(to framebuffer: GPUHandle, width: Int, height: Int, samples: Int)
    throws -> GPUHandle
  {
    let buffer = make(.renderbuffer)
    state.bindRenderbuffer(buffer, &counters, issue)
    bindFramebuffer(framebuffer)
    return buffer
  }

  package func setDepthAttachment(of framebuffer: GPUHandle, to renderbuffer: GPUHandle) {
    bindFramebuffer(framebuffer)
  }

  package func deleteFramebuffer(_ id: GPUHandle) {
    delete(.framebuffer, id)
    state.deleted(framebuffer: id)
  }

  package func deleteRenderbuffer(_ id: GPUHandle) {
    delete(.renderbuffer, id)
    state.deleted(renderbuffer: id)
  }

  package func makeVertexArray(stride: Int, attributes: [VertexAttribute]) -> (
    array: GPUHandle, vertices: GPUHandle, indices: GPUHandle
  ) {
    let array = make(.vertexArray)
    bindVertexArray(array)
    let vertices = make(.buffer)
    let indices = make(.buffer)
    state.bindArrayBuffer(vertices, &counters, issue)
    state.bindElementBuffer(indices, &counters, issue)
    return (array, vertices, indices)
  }

  package func makeEmptyVertexArray() -> GPUHandle { make(.vertexArray) }

  package func makeInstancedVertexArray(
    vertexBytes: UnsafeRawBufferPointer, indices: [UInt32], stride: Int,
    attributes: [VertexAttribute], instanceBuffer: GPUHandle, instanceStride: Int,
    instanceAttributes: [VertexAttribute]
  ) -> (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle) {
    let array = make(.vertexArray)
    bindVertexArray(array)
    let vertices = make(.buffer)
    let elements = make(.buffer)
    state.bindArrayBuffer(vertices, &counters, issue)
    record(.upload(.buffer, vertices, bytes: vertexBytes.count))
    state.bindElementBuffer(elements, &counters, issue)
    record(.upload(.buffer, elements, bytes: indices.count * 4))
    state.bindArrayBuffer(instanceBuffer, &counters, issue)
    counters.bufferUploads += 2
    return (array, vertices, elements)
  }

  package func upload<V>(
    _ data: [V], indices: [UInt32], array: GPUHandle, vertices: GPUHandle, elements: GPUHandle
  ) {
    bindVertexArray(array)
    state.bindArrayBuffer(vertices, &counters, issue)
    state.bindElementBuffer(elements, &counters, issue)
    record(.upload(.buffer, vertices, bytes: data.count * MemoryLayout<V>.stride))
    record(.upload(.buffer, elements, bytes: indices.count * 4))
    counters.bufferUploads += 2
  }

  package func deleteVertexArray(_ id: GPUHandle, buffers: [GPUHandle]) {
    delete(.vertexArray, id)
    for buffer in buffers { delete(.buffer, buffer) }
    state.deleted(vertexArray: id, buffers: buffers)
  }

  package func makeBuffer() -> GPUHandle { make(.buffer) }

  package func uploadStream<V>(_ data: [V], to buffer: GPUHandle) {
    state.bindArrayBuffer(buffer, &counters, issue)
    record(.upload(.buffer, buffer, bytes: data.count * MemoryLayout<V>.stride))
    counters.bufferUploads += 1
  }

  package func deleteBuffer(_ id: GPUHandle) {
    delete(.buffer, id)
    state.deleted(buffer: id)
  }

  /// A texture standing for the frame's (nothing is imported).
  package func texture(forDMABuf frame: DMABufFrame) throws -> GPUHandle { make(.texture) }

  // MARK: Checks

  package func verify(_ label: @autoclosure () -> String) throws {}
  package func check(_ label: @autoclosure () -> String) throws {}
  package func pushDebugGroup(_ name: String) { record(.pushDebugGroup(name)) }
  package func popDebugGroup() { record(.popDebugGroup) }
}
