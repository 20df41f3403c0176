import CMalloc

/// The C allocator's settings for the commands that run for hours
/// (`lamina show`, `lamina batch`).
enum Allocator {
  /// glibc maps a block of 128 KiB and more on its own, but raises that
  /// threshold each time such a block is freed (up to 32 MiB): from then
  /// on, llvmpipe's textures and the renderer's bitmaps and buffers come
  /// from the heap, and a heap cannot give back memory below a live block.
  /// Freed among long-lived objects, they kept a control server growing:
  /// 194 to 223 MiB in 5 minutes of `scripts/control-fuzz.py` (a debug
  /// build), 144 to 147 MiB with the threshold fixed at glibc's default.
  /// Fixing it keeps large blocks mapped on their own, returned when freed.
  static func keepLargeBlocksMapped() {
    _ = lamina_fix_mmap_threshold(128 << 10)
  }
}
