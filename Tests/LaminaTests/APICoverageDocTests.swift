import Foundation
import XCTest

@testable import Lamina

/// docs/api-coverage.md stays true: its summary counts are those of its
/// tables, and every property its tables list as present (or differing) on
/// a layer, cell or animation class is a key of that class.
final class APICoverageDocTests: XCTestCase {
  static let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/api-coverage.md")

  struct Row {
    var section: String
    var members: [String]
    var status: String
  }

  func rows() throws -> (rows: [Row], summary: [String: [Int]]) {
    let text = try String(contentsOf: Self.doc, encoding: .utf8)
    var rows: [Row] = []
    var summary: [String: [Int]] = [:]
    var section = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("## ") {
        section = String(line.dropFirst(3))
        continue
      }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 4 else { continue }
      if section.isEmpty, cells.count == 6,
        let present = Int(cells[2].replacingOccurrences(of: "*", with: ""))
      {
        let name = cells[1].replacingOccurrences(of: "*", with: "")
        summary[name] = [
          present, Int(cells[3].replacingOccurrences(of: "*", with: "")) ?? -1,
          Int(cells[4].replacingOccurrences(of: "*", with: "")) ?? -1,
        ]
        continue
      }
      guard !section.isEmpty, ["present", "differs", "absent"].contains(cells[2]) else { continue }
      var members: [String] = []
      var rest = Substring(cells[1])
      while let open = rest.firstIndex(of: "`"),
        let close = rest[rest.index(after: open)...].firstIndex(of: "`")
      {
        members.append(String(rest[rest.index(after: open)..<close]))
        rest = rest[rest.index(after: close)...]
      }
      rows.append(Row(section: section, members: members, status: cells[2]))
    }
    return (rows, summary)
  }

  func testSummaryCountsAreTheTables() throws {
    let (rows, summary) = try rows()
    XCTAssertGreaterThan(rows.count, 100)
    var counted: [String: [Int]] = [:]
    var all = [0, 0, 0]
    for row in rows {
      let column = ["present", "differs", "absent"].firstIndex(of: row.status)!
      counted[row.section, default: [0, 0, 0]][column] += max(row.members.count, 1)
      all[column] += max(row.members.count, 1)
    }
    for (section, counts) in counted {
      XCTAssertEqual(summary[section], counts, "summary of \(section)")
    }
    XCTAssertEqual(summary["all"], all)
  }

  func testListedPropertiesAreKeysOfTheirClasses() throws {
    let layers: [String: CALayer.Type] = [
      "CALayer": CALayer.self, "CAShapeLayer": CAShapeLayer.self,
      "CAGradientLayer": CAGradientLayer.self, "CATextLayer": CATextLayer.self,
      "CAReplicatorLayer": CAReplicatorLayer.self, "CAEmitterLayer": CAEmitterLayer.self,
    ]
    let animations: [String: [CAAnimation.Type]] = [
      "CAAnimation": [CAAnimation.self],
      "CAPropertyAnimation, CABasicAnimation, CAKeyframeAnimation": [
        CABasicAnimation.self, CAKeyframeAnimation.self,
      ],
      "CASpringAnimation": [CASpringAnimation.self],
    ]
    // Members that are not key-value coded properties on Apple's classes
    // either (relations, delegates, read-only state, hints not in the scene format).
    let notKeys: Set<String> = [
      "superlayer", "delegate", "layoutManager", "visibleRect", "sublayers",
      "preferredDynamicRange",
      "toneMapMode", "contentsHeadroom", "wantsExtendedDynamicRangeContent",
      "wantsDynamicContentScaling", "autoresizingMask", "settlingDuration", "perceptualDuration",
      "bounce", "preferredFrameRateRange", "kCAOnOrderIn", "kCAOnOrderOut", "kCATransition",
    ]
    var checked = 0
    for row in try rows().rows where row.status != "absent" {
      for member in row.members
      where member.first?.isLowercase == true
        && member.allSatisfy({ $0.isLetter || $0.isNumber }) && !notKeys.contains(member)
      {
        if let cls = layers[row.section] {
          XCTAssertNotNil(cls.valueKind(forKeyPath: member), "\(row.section).\(member)")
          checked += 1
        } else if row.section == "CAEmitterCell" {
          XCTAssertNotNil(CAEmitterCell.valueKind(forKey: member), "CAEmitterCell.\(member)")
          checked += 1
        } else if let classes = animations[row.section] {
          XCTAssertTrue(
            classes.contains { $0.propertyKeys.contains(member) }, "\(row.section).\(member)")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 120)
  }
}
