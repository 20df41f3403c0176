import CWayland
import Foundation
import LaminaPlan
import LaminaRender

/// Presenting through shared-memory buffers, for a software rasterizer.
///
/// Mesa's software path on Wayland (llvmpipe through `wl_egl_window`) has
/// neither buffer age nor preserved swaps: every frame would have to fill
/// the whole window, and the compositor would recomposite all of it. Here
/// the loop draws into a retained panel target instead (offscreen, on the
/// headless context) and only the damaged rects are read back into `wl_shm`
/// buffers that Lamina owns, so it knows each buffer's age itself: a buffer
/// gets this frame's damage plus what it missed while the compositor held
/// it, and the compositor is told only that damage.
final class ShmSwapchain {
  /// One `wl_buffer` over a slice of the shared memory.
  final class Buffer {
    let proxy: OpaquePointer
    let pixels: UnsafeMutableRawPointer
    /// The compositor is reading it (attached, not yet released).
    var busy = false
    /// The frame number last copied into it (nil: never).
    var frame: Int?

    init(proxy: OpaquePointer, pixels: UnsafeMutableRawPointer) {
      self.proxy = proxy
      self.pixels = pixels
    }
  }

  let width: Int
  let height: Int
  /// The panel target the loop presents into (rows top-down): retained,
  /// complete.
  let framebuffer: UInt32
  private let panelTarget: RenderTarget
  /// The context's GL device: the copies read through it.
  private let device: GLDevice
  private var buffers: [Buffer] = []
  private let memory: UnsafeMutableRawPointer
  private let size: Int
  private let pool: OpaquePointer
  /// Damage (panel pixels) of each frame copied so far, newest last.
  private var history: [[PixelRect]] = []
  private var frames = 0
  /// Damage of frames that found no free buffer.
  private var pending: [PixelRect] = []
  private var scratch: [UInt32] = []

  /// `count` buffers of `width`×`height` XRGB8888 pixels on `shm`, read
  /// from targets of `context`.
  init(shm: OpaquePointer, width: Int, height: Int, count: Int = 3, context: GPUContext) throws {
    self.width = width
    self.height = height
    device = context.device
    // First: nothing else is held yet if it throws.
    panelTarget = try RenderTarget(width: width, height: height, samples: 1, device: device)
    framebuffer = panelTarget.resolveFramebuffer
    let stride = width * 4
    size = stride * height * count
    let directory = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp"
    var template = Array("\(directory)/lamina-shm-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else {
      throw WaylandError.protocolError("cannot create shared memory in \(directory)")
    }
    unlink(String(cString: template))
    defer { close(fd) }
    guard ftruncate(fd, off_t(size)) == 0,
      let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
      mapped != MAP_FAILED
    else {
      throw WaylandError.protocolError("cannot map \(size) bytes of shared memory")
    }
    memory = mapped
    pool = wl_shm_create_pool(shm, fd, Int32(size))
    for i in 0..<count {
      let proxy = wl_shm_pool_create_buffer(
        pool, Int32(i * stride * height), Int32(width), Int32(height), Int32(stride),
        WL_SHM_FORMAT_XRGB8888.rawValue)!
      buffers.append(Buffer(proxy: proxy, pixels: mapped + i * stride * height))
    }
  }

  /// Listens for each buffer's release (`data`: the owner of the listener).
  func listen(_ listener: UnsafePointer<wl_buffer_listener>) {
    for buffer in buffers {
      wl_buffer_add_listener(
        buffer.proxy, listener, Unmanaged.passUnretained(buffer).toOpaque())
    }
  }

  deinit {
    for buffer in buffers { wl_buffer_destroy(buffer.proxy) }
    wl_shm_pool_destroy(pool)
    munmap(memory, size)
  }

  /// Copies `damage` (panel pixels, top-down) of `source` (a framebuffer
  /// with rows top-down: the panel target, or the canvas when it is the
  /// panel), and whatever the chosen buffer missed, into a free buffer;
  /// returns it with the rects copied, or nil when every buffer is still
  /// held.
  func copy(damage new: [PixelRect], from source: UInt32) -> (buffer: Buffer, copied: [PixelRect])?
  {
    guard let buffer = buffers.first(where: { !$0.busy }) else {
      // Kept for the next copy: the panel target already holds it.
      pending += new
      return nil
    }
    let damage = pending + new
    pending = []
    let panel = PixelRect(x: 0, y: 0, width: width, height: height)
    frames += 1
    history.append(damage)
    if history.count > buffers.count + 1 { history.removeFirst() }
    var rects: [PixelRect]
    if let last = buffer.frame, frames - last <= history.count {
      // The damage of every frame since this buffer was last filled.
      rects = Damage.merge(history.suffix(frames - last).flatMap { $0 }, maxRects: 8)
    } else {
      rects = [panel]
    }
    rects = rects.map { $0.intersection(panel) }.filter { !$0.isEmpty }
    for rect in rects { read(rect, of: source, into: buffer) }
    buffer.frame = frames
    buffer.busy = true
    return (buffer, rects)
  }

  /// Reads `rect` of framebuffer `source` (rows top-down) into `buffer`.
  /// XRGB8888 is B, G, R, X in memory: with `GL_EXT_read_format_bgra` GL
  /// writes that straight into the buffer, row length set to the buffer's;
  /// else RGBA is read and red and blue swapped.
  private func read(_ rect: PixelRect, of source: UInt32, into buffer: Buffer) {
    let target = buffer.pixels + (rect.y * width + rect.x) * 4
    if device.supports("GL_EXT_read_format_bgra") {
      device.readPixels(rect, of: source, bgra: true, rowLength: width, into: target)
      return
    }
    let count = rect.width * rect.height
    if scratch.count < count { scratch = [UInt32](repeating: 0, count: count) }
    scratch.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      device.readPixels(rect, of: source, into: base)
    }
    let rows = target.bindMemory(to: UInt32.self, capacity: width * rect.height)
    scratch.withUnsafeBufferPointer { source in
      for row in 0..<rect.height {
        let to = rows + row * width
        let from = row * rect.width
        for x in 0..<rect.width {
          let v = source[from + x]
          to[x] = (v & 0xFF00_FF00) | ((v & 0xFF) << 16) | ((v >> 16) & 0xFF)
        }
      }
    }
  }
}
