import CInput
import Foundation
import Glibc

/// Why input devices could not be read under KMS. Each case names the seat
/// and the step that failed, so the message says where to look.
public enum InputError: Error, Equatable, CustomStringConvertible {
  /// `udev_new` failed: no udev context to find devices with.
  case noUdev(seat: String)
  /// `libinput_udev_create_context` failed.
  case noLibinputContext(seat: String)
  /// `libinput_udev_assign_seat` failed: the seat's devices could not be
  /// enumerated.
  case cannotAssignSeat(seat: String)

  public var description: String {
    switch self {
    case .noUdev(let seat):
      "cannot read input on seat '\(seat)': udev could not be opened (udev_new failed)"
    case .noLibinputContext(let seat):
      "cannot read input on seat '\(seat)': libinput could not create its udev context"
    case .cannotAssignSeat(let seat):
      "cannot read input on seat '\(seat)': libinput could not assign the seat"
        + " (is /sys mounted and the seat name right?)"
    }
  }
}

/// Touchscreens, mice and touchpads read through libinput, for `lamina show`
/// on KMS where no display server hands us input. libinput finds a seat's
/// evdev devices through udev, follows hot-plugging, and gives touch and
/// absolute positions scaled to the panel; the pointer position and which
/// events tap are kept by a `TapTranslator`.
///
/// A seat without devices is not an error: a kiosk may have no touchscreen,
/// and one plugged in later appears on the next dispatch. Reading
/// /dev/input/event* needs root or the `input` group; devices that cannot
/// be opened are left out by libinput (which logs why).
public final class LibinputSource: InputSource {
  private let udev: OpaquePointer
  private let context: OpaquePointer
  /// libinput keeps this pointer for the context's life, so it lives on the heap.
  private let interface: UnsafeMutablePointer<libinput_interface>
  private var translator = TapTranslator()

  public var descriptor: Int32 { libinput_get_fd(context) }

  private init(
    udev: OpaquePointer, context: OpaquePointer,
    interface: UnsafeMutablePointer<libinput_interface>
  ) {
    self.udev = udev
    self.context = context
    self.interface = interface
  }

  deinit {
    libinput_unref(context)
    udev_unref(udev)
    interface.deallocate()
  }

  /// Opens the devices of `seat` (systemd's name; `seat0` unless seats are
  /// configured). Throws `InputError` when udev or libinput fail; no
  /// devices is not a failure.
  public static func open(seat: String = "seat0") throws -> LibinputSource {
    guard let udev = udev_new() else { throw InputError.noUdev(seat: seat) }
    // libinput opens devices through these so a launcher could hand out
    // descriptors; we open them ourselves. They capture nothing, as C
    // function pointers must.
    let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    interface.initialize(
      to: libinput_interface(
        open_restricted: { path, flags, _ in
          guard let path else { return -EINVAL }
          let fd = Glibc.open(path, flags)
          return fd >= 0 ? fd : -errno
        },
        close_restricted: { fd, _ in
          _ = Glibc.close(fd)
        }))
    guard let context = libinput_udev_create_context(interface, nil, udev) else {
      udev_unref(udev)
      interface.deallocate()
      throw InputError.noLibinputContext(seat: seat)
    }
    // From here deinit gives everything back, also on the throw below.
    let source = LibinputSource(udev: udev, context: context, interface: interface)
    guard libinput_udev_assign_seat(context, seat) == 0 else {
      throw InputError.cannotAssignSeat(seat: seat)
    }
    return source
  }

  public func readEvents(panelWidth: Int, panelHeight: Int) -> [DisplayEvent] {
    // A failed dispatch (a device gone mid-read) still leaves queued events.
    _ = libinput_dispatch(context)
    var taps: [DisplayEvent] = []
    while let event = libinput_get_event(context) {
      defer { libinput_event_destroy(event) }
      guard let raw = Self.raw(event, panelWidth: panelWidth, panelHeight: panelHeight),
        let tap = translator.translate(raw, panelWidth: panelWidth, panelHeight: panelHeight)
      else { continue }
      taps.append(tap)
    }
    return taps
  }

  /// The event as the translator sees it; nil for the kinds that never tap
  /// or move the pointer (devices added, keys, scrolling, touch motion).
  private static func raw(_ event: OpaquePointer, panelWidth: Int, panelHeight: Int)
    -> RawInputEvent?
  {
    let width = UInt32(clamping: panelWidth)
    let height = UInt32(clamping: panelHeight)
    switch libinput_event_get_type(event) {
    case LIBINPUT_EVENT_TOUCH_DOWN:
      guard let touch = libinput_event_get_touch_event(event) else { return nil }
      return .touchDown(
        x: libinput_event_touch_get_x_transformed(touch, width),
        y: libinput_event_touch_get_y_transformed(touch, height))
    case LIBINPUT_EVENT_POINTER_MOTION:
      guard let pointer = libinput_event_get_pointer_event(event) else { return nil }
      return .pointerMotion(
        dx: libinput_event_pointer_get_dx(pointer), dy: libinput_event_pointer_get_dy(pointer))
    case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
      guard let pointer = libinput_event_get_pointer_event(event) else { return nil }
      return .pointerMotionAbsolute(
        x: libinput_event_pointer_get_absolute_x_transformed(pointer, width),
        y: libinput_event_pointer_get_absolute_y_transformed(pointer, height))
    case LIBINPUT_EVENT_POINTER_BUTTON:
      guard let pointer = libinput_event_get_pointer_event(event) else { return nil }
      return .pointerButton(
        code: libinput_event_pointer_get_button(pointer),
        pressed: libinput_event_pointer_get_button_state(pointer)
          == LIBINPUT_BUTTON_STATE_PRESSED)
    default:
      return nil
    }
  }
}
