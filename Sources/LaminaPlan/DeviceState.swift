import Foundation
import Lamina
import LaminaFrame

/// A blend equation: how source and destination combine.
package enum BlendEquation: Hashable {
  /// `src × Fs + dst × Fd`.
  case add
  case min
  case max
  /// A KHR_blend_equation_advanced equation by its Core Image name (the
  /// factors do not apply).
  case advanced(String)
}

/// A blend factor of premultiplied colors.
package enum BlendFactor: Hashable {
  case zero, one, sourceAlpha, destinationAlpha, oneMinusSourceAlpha, oneMinusDestinationAlpha
  case destinationColor
}

/// One state call a device makes when its cache says the state differs:
/// what `DeviceState` decides, and what a device then issues (the GL
/// device as GL calls, the recording device into its list).
package enum StateCall: Equatable {
  case useProgram(GPUHandle)
  case bindVertexArray(GPUHandle)
  case activeTexture(unit: Int)
  /// Binds a texture on the active unit.
  case bindTexture(GPUHandle)
  case bindSampler(unit: Int, GPUHandle)
  /// Binds a framebuffer for drawing and reading.
  case bindFramebuffer(GPUHandle)
  case bindDrawFramebuffer(GPUHandle)
  case bindReadFramebuffer(GPUHandle)
  case viewport(PixelRect)
  case scissorTest(Bool)
  case scissor(PixelRect)
  case blending(Bool)
  case blendEquation(BlendEquation)
  case blendFunction(source: BlendFactor, destination: BlendFactor)
  case clearColor(SIMD4<Float>)
  case depthTest(Bool)
  case bindArrayBuffer(GPUHandle)
  /// Binds the element buffer of the bound vertex array.
  case bindElementBuffer(GPUHandle)
  case bindRenderbuffer(GPUHandle)
  case packAlignment(Int)
  case packRowLength(Int)
  case unpackAlignment(Int)
}

/// The state cache of a GPU device, shared by the GL and the recording
/// device: what is bound and set, each value nil while unknown. Every
/// setter compares with the cache, and only a change makes its call (through
/// `issue`) and counts it, so a redundant request costs nothing.
package struct DeviceState {
  /// Texture units the renderer uses: 0 for an item's image, 1 for a mask
  /// or a copy of the backdrop.
  package static let textureUnits = 2

  package var program: GPUHandle?
  package var vertexArray: GPUHandle?
  package var activeUnit: Int?
  package var textures = [GPUHandle?](repeating: nil, count: DeviceState.textureUnits)
  package var samplers = [GPUHandle?](repeating: nil, count: DeviceState.textureUnits)
  package var drawFramebuffer: GPUHandle?
  package var readFramebuffer: GPUHandle?
  package var viewport: PixelRect?
  package var scissorTest: Bool?
  package var scissorBox: PixelRect?
  package var blending: Bool?
  package var blendEquation: BlendEquation?
  package var blendFunction: (source: BlendFactor, destination: BlendFactor)?
  package var clearColor: SIMD4<Float>?
  package var depthTest: Bool?
  package var arrayBuffer: GPUHandle?
  /// The element buffer recorded in each vertex array (it is vertex array state).
  package var elementBuffers: [GPUHandle: GPUHandle] = [:]
  package var renderbuffer: GPUHandle?
  package var packAlignment: Int?
  package var packRowLength: Int?
  package var unpackAlignment: Int?

  package init() {}

  package mutating func bindArrayBuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != arrayBuffer else { return }
    issue(.bindArrayBuffer(id))
    arrayBuffer = id
    counters.stateChanges += 1
  }

  /// `id` as the element buffer of the bound vertex array.
  package mutating func bindElementBuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    if let vertexArray, elementBuffers[vertexArray] == id { return }
    issue(.bindElementBuffer(id))
    if let vertexArray { elementBuffers[vertexArray] = id }
    counters.stateChanges += 1
  }

  package mutating func bindRenderbuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != renderbuffer else { return }
    issue(.bindRenderbuffer(id))
    renderbuffer = id
    counters.stateChanges += 1
  }

  /// Pixel rows read back 4-byte aligned, `rowLength` pixels apart.
  package mutating func setPack(
    rowLength: Int, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    if packAlignment != 4 {
      issue(.packAlignment(4))
      packAlignment = 4
      counters.stateChanges += 1
    }
    if packRowLength != rowLength {
      issue(.packRowLength(rowLength))
      packRowLength = rowLength
      counters.stateChanges += 1
    }
  }

  package mutating func setUnpackAlignment(
    _ value: Int, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard unpackAlignment != value else { return }
    issue(.unpackAlignment(value))
    unpackAlignment = value
    counters.stateChanges += 1
  }

  // MARK: Deleted objects (GL unbinds them: the cache follows)

  package mutating func deleted(texture id: GPUHandle) {
    for unit in textures.indices where textures[unit] == id { textures[unit] = 0 }
  }

  package mutating func deleted(sampler id: GPUHandle) {
    for unit in samplers.indices where samplers[unit] == id { samplers[unit] = 0 }
  }

  package mutating func deleted(framebuffer id: GPUHandle) {
    if drawFramebuffer == id { drawFramebuffer = 0 }
    if readFramebuffer == id { readFramebuffer = 0 }
  }

  package mutating func deleted(renderbuffer id: GPUHandle) {
    if renderbuffer == id { renderbuffer = 0 }
  }

  package mutating func deleted(buffer id: GPUHandle) {
    if arrayBuffer == id { arrayBuffer = 0 }
  }

  package mutating func deleted(vertexArray id: GPUHandle, buffers: [GPUHandle]) {
    if vertexArray == id { vertexArray = 0 }
    elementBuffers[id] = nil
    guard !buffers.isEmpty else { return }
    if let arrayBuffer, buffers.contains(arrayBuffer) { self.arrayBuffer = 0 }
    // A deleted buffer is unbound from the vertex array in use.
    if let vertexArray, let bound = elementBuffers[vertexArray], buffers.contains(bound) {
      elementBuffers[vertexArray] = 0
    }
  }

  package mutating func useProgram(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != program else { return }
    issue(.useProgram(id))
    program = id
    counters.programBinds += 1
  }

  package mutating func bindVertexArray(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != vertexArray else { return }
    issue(.bindVertexArray(id))
    vertexArray = id
    counters.stateChanges += 1
  }

  package mutating func activate(
    unit: Int, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard unit != activeUnit else { return }
    issue(.activeTexture(unit: unit))
    activeUnit = unit
    counters.stateChanges += 1
  }

  /// Texture `id` on `unit`, read through `sampler` (0: the texture's own
  /// parameters).
  package mutating func bindTexture(
    _ id: GPUHandle, unit: Int, sampler: GPUHandle, _ counters: inout RenderCounters,
    _ issue: (StateCall) -> Void
  ) {
    if textures[unit] != id {
      activate(unit: unit, &counters, issue)
      issue(.bindTexture(id))
      textures[unit] = id
      counters.textureBinds += 1
    }
    if samplers[unit] != sampler {
      issue(.bindSampler(unit: unit, sampler))
      samplers[unit] = sampler
      counters.stateChanges += 1
    }
  }

  /// Texture `id` bound on the active unit, for work on it (uploads, mipmaps).
  package mutating func bindTextureForEditing(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    let unit = activeUnit ?? 0
    activate(unit: unit, &counters, issue)
    guard textures[unit] != id else { return }
    issue(.bindTexture(id))
    textures[unit] = id
    counters.textureBinds += 1
  }

  package mutating func bindFramebuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != drawFramebuffer || id != readFramebuffer else { return }
    issue(.bindFramebuffer(id))
    drawFramebuffer = id
    readFramebuffer = id
    counters.stateChanges += 1
  }

  package mutating func bindDrawFramebuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != drawFramebuffer else { return }
    issue(.bindDrawFramebuffer(id))
    drawFramebuffer = id
    counters.stateChanges += 1
  }

  package mutating func bindReadFramebuffer(
    _ id: GPUHandle, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard id != readFramebuffer else { return }
    issue(.bindReadFramebuffer(id))
    readFramebuffer = id
    counters.stateChanges += 1
  }

  package mutating func setViewport(
    _ rect: PixelRect, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard rect != viewport else { return }
    issue(.viewport(rect))
    viewport = rect
    counters.stateChanges += 1
  }

  /// Scissors to `rect` (target pixels), or lifts the scissor (nil).
  package mutating func setScissor(
    _ rect: PixelRect?, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    let on = rect != nil
    if on != scissorTest {
      issue(.scissorTest(on))
      scissorTest = on
      counters.stateChanges += 1
    }
    if let rect, rect != scissorBox {
      issue(.scissor(rect))
      scissorBox = rect
      counters.stateChanges += 1
    }
  }

  /// Premultiplied blending in `mode`, or none (`on` false).
  package mutating func setBlending(
    _ on: Bool, mode: BlendMode, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    if on != blending {
      issue(.blending(on))
      blending = on
      counters.stateChanges += 1
    }
    guard on else { return }
    let (equation, source, destination) = Self.blend(mode)
    if equation != blendEquation {
      issue(.blendEquation(equation))
      blendEquation = equation
      counters.stateChanges += 1
    }
    // Advanced equations (and min and max) ignore the function: it stays as it is.
    if equation == .add,
      blendFunction.map({ $0.source != source || $0.destination != destination }) ?? true
    {
      issue(.blendFunction(source: source, destination: destination))
      blendFunction = (source, destination)
      counters.stateChanges += 1
    }
  }

  package mutating func setClearColor(
    _ color: SIMD4<Float>, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard color != clearColor else { return }
    issue(.clearColor(color))
    clearColor = color
    counters.stateChanges += 1
  }

  /// The depth test of path items (greater passes, and writes), or off.
  package mutating func setDepthTest(
    _ on: Bool, _ counters: inout RenderCounters, _ issue: (StateCall) -> Void
  ) {
    guard on != depthTest else { return }
    issue(.depthTest(on))
    depthTest = on
    counters.stateChanges += 1
  }

  /// The equation and factors of a blend mode on premultiplied colors:
  /// source-over `src + dst × (1 − src.a)`, additive `src + dst`, an
  /// advanced equation, or a Porter–Duff operator `src × Fa + dst × Fb`
  /// with Fa and Fb as Porter and Duff tabulate them (min and max for
  /// `minimum` and `maximum`).
  package static func blend(_ mode: BlendMode) -> (
    equation: BlendEquation, source: BlendFactor, destination: BlendFactor
  ) {
    switch mode {
    case .sourceOver: return (.add, .one, .oneMinusSourceAlpha)
    case .additive: return (.add, .one, .one)
    case .composite(let name): return (.advanced(name), .one, .oneMinusSourceAlpha)
    case .porterDuff(let op):
      switch op {
      case .clear: return (.add, .zero, .zero)
      case .copy: return (.add, .one, .zero)
      case .sourceOver: return (.add, .one, .oneMinusSourceAlpha)
      case .sourceIn: return (.add, .destinationAlpha, .zero)
      case .sourceOut: return (.add, .oneMinusDestinationAlpha, .zero)
      case .sourceAtop: return (.add, .destinationAlpha, .oneMinusSourceAlpha)
      case .destOver: return (.add, .oneMinusDestinationAlpha, .one)
      case .destIn: return (.add, .zero, .sourceAlpha)
      case .destOut: return (.add, .zero, .oneMinusSourceAlpha)
      case .destAtop: return (.add, .oneMinusDestinationAlpha, .sourceAlpha)
      case .xor: return (.add, .oneMinusDestinationAlpha, .oneMinusSourceAlpha)
      case .plusL: return (.add, .one, .one)
      case .multiply: return (.add, .destinationColor, .zero)
      case .minimum: return (.min, .one, .one)
      case .maximum: return (.max, .one, .one)
      }
    }
  }
}
