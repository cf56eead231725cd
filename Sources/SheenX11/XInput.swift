import CX11
import SheenPlatform
import SheenRaster

/// A window's XInput2 pointer and touch input: selects the events (XI 2.1 for smooth scrolling,
/// 2.2 for touch), reads device classes, and decodes Xlib's event cookies for an
/// `XInputTranslator` per master pointer. Without XI 2.1 the window keeps its core events.
///
/// Selecting XI2 pointer events on a window replaces the core pointer events of this client
/// there (motion, buttons, crossings); keys and focus stay core events.
final class XInput {
  let display: X11Display
  /// The XI2 minor version in use (1 or more).
  let minorVersion: Int32
  private var translators: [Int32: XInputTranslator] = [:]
  /// Whether each source (slave) device is a touchpad, by device id.
  private var touchpads: [Int32: Bool] = [:]

  /// Selects XI2 events on `window`; nil when the server has no XI 2.1.
  init?(display: X11Display, window: Window) {
    guard display.xiMinorVersion >= 1 else { return nil }
    self.display = display
    minorVersion = display.xiMinorVersion
    var events = [XI_Motion, XI_ButtonPress, XI_ButtonRelease, XI_Enter, XI_Leave, XI_DeviceChanged]
    if minorVersion >= 2 { events += [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] }
    var mask = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
    for e in events { sheen_xi_set_mask(&mask, Int32(mask.count), e) }
    let status = mask.withUnsafeMutableBufferPointer { bytes -> Int32 in
      var m = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
      return XISelectEvents(display.handle, window, &m, 1)
    }
    guard status == Success else { return nil }
    readMasterPointers()
  }

  /// The earliest time a translator has something due (a touchpad scroll's end).
  var nextDeadline: Double? { translators.values.compactMap(\.smoothScrollDeadline).min() }

  /// The events due by `now`.
  func expire(now: Double) -> [PlatformEvent] {
    var out: [PlatformEvent] = []
    for id in translators.keys.sorted() { out += translators[id]!.expire(now: now) }
    return out
  }

  /// Reads each master pointer's scroll valuators (from its current source device).
  private func readMasterPointers() {
    var count: Int32 = 0
    guard let devices = XIQueryDevice(display.handle, XIAllMasterDevices, &count) else { return }
    defer { XIFreeDeviceInfo(devices) }
    for i in 0..<Int(count) where devices[i].use == XIMasterPointer {
      let d = devices[i]
      translators[d.deviceid, default: XInputTranslator()].setClasses(d.classes, count: d.num_classes)
    }
  }

  /// Whether `sourceID` is a touchpad: its XI device type is `TOUCHPAD` (as the libinput and
  /// synaptics drivers set it). Asked once per device.
  private func isTouchpad(_ sourceID: Int32) -> Bool {
    if let known = touchpads[sourceID] { return known }
    var touchpad = false
    var count: Int32 = 0
    if let list = XListInputDevices(display.handle, &count) {
      let touchpadType = display.atom("TOUCHPAD")
      for i in 0..<Int(count) where list[i].id == XID(sourceID) {
        touchpad = list[i].type == touchpadType
      }
      XFreeDeviceList(list)
    }
    touchpads[sourceID] = touchpad
    return touchpad
  }

  /// Translates `event` if it is one of ours (an XI2 cookie); returns nil for other events.
  func translate(_ event: inout XEvent, now: Double) -> [PlatformEvent]? {
    guard event.type == GenericEvent, event.xcookie.extension == display.xiOpcode else { return nil }
    let d = display.handle
    guard XGetEventData(d, &event.xcookie) != 0, let data = event.xcookie.data else { return [] }
    defer { XFreeEventData(d, &event.xcookie) }
    switch event.xcookie.evtype {
    case XI_Motion, XI_ButtonPress, XI_ButtonRelease, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
      return deviceEvent(data.assumingMemoryBound(to: XIDeviceEvent.self).pointee, now: now)
    case XI_Enter, XI_Leave:
      let e = data.assumingMemoryBound(to: XIEnterEvent.self).pointee
      var t = translators[e.deviceid, default: XInputTranslator()]
      defer { translators[e.deviceid] = t }
      if e.evtype == XI_Enter { return t.enter(at: Point(x: e.event_x, y: e.event_y)) }
      return t.leave(time: now)
    case XI_DeviceChanged:
      let e = data.assumingMemoryBound(to: XIDeviceChangedEvent.self).pointee
      touchpads[e.sourceid] = nil
      translators[e.deviceid, default: XInputTranslator()].setClasses(e.classes, count: e.num_classes)
      return []
    default:
      return []
    }
  }

  private func deviceEvent(_ e: XIDeviceEvent, now: Double) -> [PlatformEvent] {
    let p = Point(x: e.event_x, y: e.event_y)
    let mods = Modifiers(xState: UInt32(bitPattern: e.mods.effective))
    let emulated = e.flags & XIPointerEmulated != 0
    var t = translators[e.deviceid, default: XInputTranslator()]
    defer { translators[e.deviceid] = t }
    switch e.evtype {
    case XI_Motion:
      if emulated { return [] }
      var values: [(number: Int, value: Double)] = []
      let v = e.valuators
      if let mask = v.mask, let numbers = v.values {
        var next = 0
        for bit in 0..<Int(v.mask_len) * 8 where sheen_xi_mask_is_set(mask, v.mask_len, Int32(bit)) != 0 {
          values.append((bit, numbers[next]))
          next += 1
        }
      }
      let scrolls = values.contains { t.scrollValuators[$0.number] != nil }
      return t.motion(
        at: p, valuators: values, touchpad: scrolls && isTouchpad(e.sourceid), modifiers: mods, time: now)
    case XI_ButtonPress, XI_ButtonRelease:
      return t.button(
        Int(e.detail), pressed: e.evtype == XI_ButtonPress, emulated: emulated, at: p, modifiers: mods)
    case XI_TouchBegin: return t.touch(.begin, id: Int(e.detail), at: p)
    case XI_TouchUpdate: return t.touch(.update, id: Int(e.detail), at: p)
    case XI_TouchEnd: return t.touch(.end, id: Int(e.detail), at: p)
    default: return []
    }
  }
}

extension XInputTranslator {
  /// Takes the scroll valuators (and their current values) from an XI2 class list.
  mutating func setClasses(
    _ classes: UnsafeMutablePointer<UnsafeMutablePointer<XIAnyClassInfo>?>?, count: Int32
  ) {
    var scrolls: [ScrollValuator] = []
    var values: [Int: Double] = [:]
    for i in 0..<Int(count) {
      guard let c = classes?[i] else { continue }
      switch c.pointee.type {
      case XIScrollClass:
        let s = UnsafeRawPointer(c).assumingMemoryBound(to: XIScrollClassInfo.self).pointee
        scrolls.append(
          ScrollValuator(
            number: Int(s.number), vertical: s.scroll_type == XIScrollTypeVertical, increment: s.increment))
      case XIValuatorClass:
        let v = UnsafeRawPointer(c).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
        values[Int(v.number)] = v.value
      default:
        break
      }
    }
    setScrollValuators(scrolls, values: values)
  }
}
