/// One input event as the tap translation needs it, already taken out of
/// the device library (libinput) so the translation can be tested without
/// devices. Absolute positions are panel pixels, top-down.
enum RawInputEvent: Equatable, Sendable {
  /// A finger touched the screen at (`x`, `y`).
  case touchDown(x: Double, y: Double)
  /// A mouse or touchpad moved the pointer by (`dx`, `dy`) pixels.
  case pointerMotion(dx: Double, dy: Double)
  /// A tablet or absolute pointer put the pointer at (`x`, `y`).
  case pointerMotionAbsolute(x: Double, y: Double)
  /// A pointer button (a Linux `BTN_*` code) was pressed or released.
  case pointerButton(code: UInt32, pressed: Bool)
}

/// Turns raw pointer and touch events into the loop's `.tap` events. Under
/// KMS nothing draws or tracks a cursor for us, so the pointer position is
/// kept here: relative motion accumulates from the panel's center, and
/// every position stays on the panel, also after the panel is resized.
struct TapTranslator: Sendable {
  /// `BTN_LEFT` from linux/input-event-codes.h: the only button that taps.
  static let leftButton: UInt32 = 0x110

  /// The pointer position in panel pixels; nil until the first event
  /// places it at the panel's center.
  private(set) var cursor: (x: Double, y: Double)?

  /// The `.tap` that `event` makes on a `panelWidth`×`panelHeight` panel,
  /// or nil when it only moves the pointer (or does nothing).
  mutating func translate(_ event: RawInputEvent, panelWidth: Int, panelHeight: Int)
    -> DisplayEvent?
  {
    let current: (x: Double, y: Double) =
      cursor.map { Self.clamp($0.x, $0.y, panelWidth, panelHeight) }
      ?? (x: Double(panelWidth) / 2, y: Double(panelHeight) / 2)
    cursor = current
    switch event {
    case .touchDown(let x, let y):
      let p = Self.clamp(x, y, panelWidth, panelHeight)
      return .tap(x: p.x, y: p.y)
    case .pointerMotion(let dx, let dy):
      cursor = Self.clamp(current.x + dx, current.y + dy, panelWidth, panelHeight)
    case .pointerMotionAbsolute(let x, let y):
      cursor = Self.clamp(x, y, panelWidth, panelHeight)
    case .pointerButton(let code, let pressed):
      if code == Self.leftButton && pressed {
        return .tap(x: current.x, y: current.y)
      }
    }
    return nil
  }

  /// (`x`, `y`) kept within the panel: 0 up to the last pixel's left or top
  /// edge, so a position never lands beside the panel.
  static func clamp(_ x: Double, _ y: Double, _ width: Int, _ height: Int) -> (
    x: Double, y: Double
  ) {
    let maxX = Double(max(0, width - 1))
    let maxY = Double(max(0, height - 1))
    return (min(max(x, 0), maxX), min(max(y, 0), maxY))
  }
}
