import Foundation
import Lamina
import LaminaScene

/// Writing the control channel's reply lines: JSON values as text, and
/// layer values in the scene format's own terms.
package enum ControlJSON {
  /// `json` as one line of compact JSON.
  static func text(_ json: JSON) -> String {
    var out = ""
    write(json, to: &out)
    return out
  }

  private static func write(_ json: JSON, to out: inout String) {
    switch json {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let v): out += number(v)
    case .string(let s): out += jsonString(s)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        write(item, to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        out += jsonString(member.key)
        out += ":"
        write(member.value, to: &out)
      }
      out += "}"
    }
  }

  /// A finite number as JSON writes it (whole numbers without a fraction);
  /// a value that is not finite is written as null.
  package static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(saturating: v)) }
    return "\(v)"
  }

  /// A layer's value as the scene format writes it: numbers, [x, y],
  /// [x, y, w, h], "#rrggbbaa", 16 transform numbers, strings, lists.
  static func value(_ value: Any?) -> JSON {
    switch value {
    case nil: return .null
    case let b as Bool: return .bool(b)
    case let v as CGFloat: return .number(Double(v))
    case let v as Double: return .number(v)
    case let v as Float: return .number(Double(v))
    case let v as Int: return .number(Double(v))
    case let s as String: return .string(s)
    case let p as CGPoint: return .array([.number(Double(p.x)), .number(Double(p.y))])
    case let s as CGSize: return .array([.number(Double(s.width)), .number(Double(s.height))])
    case let r as CGRect:
      return .array([r.origin.x, r.origin.y, r.size.width, r.size.height].map { .number(Double($0)) })
    case let t as CATransform3D:
      let entries = [
        t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
      ]
      return .array(entries.map { .number(Double($0)) })
    case let c as CGColor: return color(c)
    case let list as [Any]: return .array(list.map { self.value($0) })
    case let n as NSNumber: return .number(n.doubleValue)
    case let wrapped?: return .string(String(describing: wrapped))
    }
  }

  private static func color(_ c: CGColor) -> JSON {
    let parts = c.components ?? []
    guard parts.count >= 3 else {
      return .array(parts.map { .number(Double($0)) })
    }
    let alpha = parts.count >= 4 ? parts[3] : 1
    let bytes = [parts[0], parts[1], parts[2], alpha].map {
      Int(saturating: min(max(Double($0), 0), 1) * 255, rounding: .toNearestOrAwayFromZero)
    }
    return .string("#" + bytes.map { String(format: "%02x", $0) }.joined())
  }
}
