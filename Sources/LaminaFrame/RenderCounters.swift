import Foundation

/// What the GPU device did, counted (the GL device and the recording
/// device count alike). Counts are stable where timings are not,
/// so tests assert on them.
public struct RenderCounters: Equatable, Sendable {
  /// Draw calls (`glDrawElements`, and the full-target triangles of filter passes).
  public var drawCalls = 0
  /// Textures uploaded from images and gradient ramps (`glTexImage2D` with pixels).
  public var textureUploads = 0
  /// Of those, gradients' color ramps (one per distinct set of stops).
  public var rampUploads = 0
  /// Offscreen passes: group opacity, masks, filters, shadows, copies of
  /// backdrops, rasterizations, `CAOpenGLLayer` draws.
  public var offscreenPasses = 0
  /// Program switches.
  public var programBinds = 0
  /// Texture binds that changed the bound texture (any unit).
  public var textureBinds = 0
  /// Vertices sent.
  public var vertices = 0
  /// Rasterized subtrees drawn (not found in the cache).
  public var rasterizations = 0
  /// Every step of the frame plan that ran: passes into the canvas and
  /// offscreen, copies, filter passes.
  public var passes = 0
  /// Calls that changed cached GL state (binds, viewport, scissor, blending,
  /// clear color, pixel storage), beyond the program and texture binds.
  public var stateChanges = 0
  /// Vertex and index buffers filled.
  public var bufferUploads = 0
  /// Path meshes (shape layers' fills and strokes) uploaded to the GPU.
  public var geometryUploads = 0
  /// Runs of path items drawn by Cairo (`PlanOptions.cpuPaths`), and the
  /// path items they held.
  public var cpuPathRuns = 0
  public var cpuPathItems = 0
  /// Runs drawn only where they differ from the last frame's, and the
  /// pixels drawn by runs (`FramePlan.cpuPathRunsRedrawn`, `cpuPathRunPixels`).
  public var cpuPathRunsRedrawn = 0
  public var cpuPathRunPixels = 0
  /// Batches drawn, by why each began instead of joining the batch before
  /// it (`BatchBreak`: pass, program, texture, paint, blend, overlap, clip,
  /// mesh, unbatched).
  public var batchBreaks: [String: Int] = [:]

  public init() {}
}
