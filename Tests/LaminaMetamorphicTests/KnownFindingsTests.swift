import Foundation
import LaminaMetamorphic
import LaminaScene
import XCTest

/// Every saved finding in `Fixtures/findings/` whose cause lies in the GL
/// backend must still fail its relation (an expected failure, which XCTest
/// on Linux lacks): when one holds, its bug was fixed and the finding
/// should become a reftest.
final class KnownFindingsTests: XCTestCase {
  func testEveryKnownFindingStillFails() throws {
    let folder = FixedSeedTests.fixtures.appendingPathComponent("findings")
    // The folders of open findings (the README beside them says what they are; none may be open).
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter {
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent($0).path
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
    let harness = try Harness()
    for name in names {
      let dir = folder.appendingPathComponent(name)
      // Image paths are those of the generated scenes (this module's images).
      let finding = try KnownFinding(folder: dir)
      XCTAssertTrue(
        try finding.stillFails(harness),
        "\(name): \(finding.relation) holds now: the bug is fixed; turn scene.json into a reftest and delete findings/\(name)"
      )
    }
  }
}

/// Findings whose cause was fixed (outside the GL backend) replay and hold;
/// each also has a reftest in LaminaRenderTests where its relation has one.
final class FixedFindingsTests: XCTestCase {
  func testEveryFixedFindingHolds() throws {
    let folder = FixedSeedTests.fixtures.appendingPathComponent("fixed")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertFalse(names.isEmpty)
    let harness = try Harness()
    for name in names {
      let finding = try KnownFinding(folder: folder.appendingPathComponent(name))
      XCTAssertFalse(try finding.stillFails(harness), "\(name): \(finding.relation) fails again")
    }
  }
}
