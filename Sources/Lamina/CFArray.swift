import Foundation

// Core Text hands out its lines and runs as `CFArray`s on Apple platforms,
// and iOS text code reads them in one of two ways: through the Core
// Foundation calls (`CFArrayGetCount`, `CFArrayGetValueAtIndex` and an
// `unsafeBitCast` of the value to `CTLine`), or by casting the array
// (`as! [CTLine]`, `as? [CTRun]`). On Linux, swift-corelibs-foundation keeps
// its CoreFoundation module internal (no `CFArray` type, no `CFArray…`
// functions reach `import Foundation`), and its arrays do not bridge by
// casting as Apple's toll-free bridging does. So Lamina's Core Text returns
// Swift arrays of the objects (`[CTLine]`, `[CTRun]`), which cast to
// themselves, and a `CFArray` here is an array of objects, which they
// convert to where a `CFArray` is asked for, with the two functions iOS
// code calls on it.

/// Core Foundation's array of objects: what Core Text's
/// `CTFrameGetLines` and `CTLineGetGlyphRuns` return on Apple platforms.
/// Lamina's return `[CTLine]` and `[CTRun]`, which pass wherever a
/// `CFArray` is asked for:
///
/// ```swift
/// let lines = CTFrameGetLines(frame)
/// for i in 0..<CFArrayGetCount(lines) {
///   let line = unsafeBitCast(CFArrayGetValueAtIndex(lines, i), to: CTLine.self)
///   CTLineDraw(line, ctx)
/// }
/// let runs = CTLineGetGlyphRuns(line) as! [CTRun]  // compiles; the cast always succeeds
/// ```
public typealias CFArray = [AnyObject]

/// The number of values in `theArray`.
public func CFArrayGetCount(_ theArray: CFArray) -> CFIndex { theArray.count }

/// The value at `idx` in `theArray`, unretained (Core Foundation's "get
/// rule": it lives as long as the array holds it), as a pointer that
/// `unsafeBitCast(_:to:)` turns back into the object (`CTLine.self`,
/// `CTRun.self`). Nil for an index out of bounds, where Core Foundation's
/// behaviour is undefined.
public func CFArrayGetValueAtIndex(_ theArray: CFArray, _ idx: CFIndex) -> UnsafeRawPointer! {
  guard theArray.indices.contains(idx) else { return nil }
  return UnsafeRawPointer(Unmanaged.passUnretained(theArray[idx]).toOpaque())
}
