import Foundation
import Lamina
import LaminaTestSupport
import XCTest

@testable import LaminaLottie

/// dotLottie archives (libzip) and Telegram stickers (zlib): read by
/// content, every entry untrusted (bombs refused before or while
/// inflating, within docs/limits.md's bounds; no name leads outside the
/// archive), images handed to the importer from the archive. The archives
/// are built here with python3's zipfile and gzip.
final class LottieArchiveTests: XCTestCase {
  var scratch: URL!

  override func setUpWithError() throws {
    scratch = try Commands.commandScratch("lamina-lottie-archive")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  var document: URL { LottieTestSupport.fixtures.appendingPathComponent("lottie/timing.json") }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  /// Runs a python3 script in the scratch folder (`DOC` is the fixture's path).
  func python(_ script: String) throws {
    let r = try Commands.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script],
      environment: ["DOC": document.path], directory: scratch)
    guard r.status == 0 else { throw XCTSkip("python3 could not build the archive: \(r.stderr)") }
  }

  func lamina(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let r = try Commands.run(
      Commands.laminaBinary, arguments, directory: scratch)
    return (r.status, String(decoding: r.stdout, as: UTF8.self), r.stderr)
  }

  /// A dotLottie with a manifest, two animations (the manifest's active
  /// one is played) and an image.
  func makeDotLottie(_ name: String, active: String = "timing") throws {
    try python(
      """
      import os, zipfile
      doc = open(os.environ['DOC'], 'rb').read()
      with zipfile.ZipFile('\(name)', 'w', zipfile.ZIP_DEFLATED) as z:
          z.writestr('manifest.json', '{"version": "1", "activeAnimationId": "\(active)",'
                     ' "animations": [{"id": "other"}, {"id": "timing"}]}')
          z.writestr('animations/other.json', doc.replace(b'"w": 200', b'"w": 120'))
          z.writestr('animations/timing.json', doc)
          z.writestr('images/img_0.png', b'\\x89PNG not really')
      """)
  }

  func testDotLottieRendersItsActiveAnimation() throws {
    try makeDotLottie("anim.lottie")
    let run = try lamina(["render", path("anim.lottie"), "-o", path("out.png")])
    XCTAssertEqual(run.status, 0, run.stderr)
    let image = try CGImage.decode(fileAt: path("out.png"))
    XCTAssertEqual([image.width, image.height], [200, 100])
    let info = try lamina(["info", path("anim.lottie")])
    XCTAssertEqual(info.status, 0, info.stderr)
    XCTAssertTrue(
      info.stdout.contains("anim.lottie: Lottie animation in a dotLottie archive"), info.stdout)
    XCTAssertTrue(info.stdout.contains("size: 200x100 points"), info.stdout)

    try makeDotLottie("other.lottie", active: "other")
    let other = try lamina(["info", path("other.lottie")])
    XCTAssertTrue(other.stdout.contains("size: 120x100 points"), other.stdout)
    try makeDotLottie("missing.lottie", active: "gone")
    let missing = try lamina(["info", path("missing.lottie")])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(
      missing.stderr.contains(
        "missing.lottie: entry 'manifest.json': the active animation 'gone' is not in the archive"
          + " (it has animations/other.json, animations/timing.json)"), missing.stderr)
  }

  /// Images come from the archive through `LottieOptions.assetData`, by the
  /// asset's `u` + `p`; no path leads outside it.
  func testArchiveImagesAreServedByNameAndNeverOutsideIt() throws {
    try makeDotLottie("anim.lottie")
    let archive = try DotLottie(
      data: Data(contentsOf: URL(fileURLWithPath: path("anim.lottie"))), name: "anim.lottie")
    XCTAssertEqual(archive.animationEntry, "animations/timing.json")
    // b'\x89PNG not really': 15 bytes.
    let png = Data([0x89]) + Data("PNG not really".utf8)
    XCTAssertEqual(try archive.asset("/images/img_0.png"), png)
    XCTAssertEqual(try archive.asset("images/img_0.png"), png)
    XCTAssertEqual(try archive.asset("img_0.png"), png)
    for escaping in ["../images/img_0.png", "images/../../etc/passwd", "C:\\\\x.png"] {
      XCTAssertThrowsError(try archive.asset(escaping)) { error in
        XCTAssertTrue("\(error)".contains("leads outside the archive"), "\(escaping): \(error)")
      }
    }
    XCTAssertThrowsError(try archive.asset("/images/none.png")) { error in
      XCTAssertEqual(
        "\(error)",
        "anim.lottie: entry '/images/none.png': no such image in the archive (it has images/img_0.png)"
      )
    }
  }

  func testTelegramStickerIsInflatedLottie() throws {
    try python(
      """
      import gzip, os
      open('sticker.tgs', 'wb').write(gzip.compress(open(os.environ['DOC'], 'rb').read()))
      """)
    let run = try lamina(["render", path("sticker.tgs"), "-o", path("s.png"), "--frame", "40"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(try CGImage.decode(fileAt: path("s.png")).width, 200)
    let info = try lamina(["info", path("sticker.tgs")])
    XCTAssertTrue(
      info.stdout.contains("Lottie animation in a Telegram sticker (gzip)"), info.stdout)
  }

  func testZipBombsAndTraversalNamesAreRefused() throws {
    try python(
      """
      import zipfile
      def make(name, entries):
          with zipfile.ZipFile(name, 'w', zipfile.ZIP_DEFLATED) as z:
              for n, data in entries:
                  z.writestr(n, data)
      make('big.lottie', [('animations/a.json', b' ' * (40 << 20))])
      make('ratio.lottie', [('animations/a.json', b'{}'), ('images/x.png', b'\\0' * (20 << 20))])
      make('up.lottie', [('animations/a.json', b'{}'), ('../evil.json', b'{}')])
      make('abs.lottie', [('animations/a.json', b'{}'), ('/etc/cron.d/x', b'{}')])
      open('notzip.lottie', 'wb').write(b'PK\\x03\\x04 this is no archive')
      # Both headers say 100 bytes; the entry inflates to 40000.
      import io, struct
      b = io.BytesIO()
      with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED) as z:
          z.writestr('animations/a.json', b' ' * 40000)
      data = bytearray(b.getvalue())
      struct.pack_into('<I', data, data.find(b'PK\\x03\\x04') + 22, 100)
      struct.pack_into('<I', data, data.find(b'PK\\x01\\x02') + 24, 100)
      open('liar.lottie', 'wb').write(data)
      """)
    let cases: [(String, String)] = [
      (
        "big.lottie",
        "big.lottie: entry 'animations/a.json': inflates to 41943040 bytes, over the limit of 33554432"
      ),
      (
        "ratio.lottie",
        "ratio.lottie: entry 'images/x.png': compressed"
      ),
      ("up.lottie", "up.lottie: entry '../evil.json': a name that leads outside the archive"),
      ("abs.lottie", "abs.lottie: entry '/etc/cron.d/x': a name that leads outside the archive"),
      ("notzip.lottie", "notzip.lottie: not a readable zip archive"),
      (
        "liar.lottie",
        "liar.lottie: entry 'animations/a.json': inflates to more bytes than its header says (100)"
      ),
    ]
    for (name, message) in cases {
      let run = try lamina(["render", path(name), "-o", path("out.png")])
      XCTAssertEqual(run.status, 1, name)
      XCTAssertTrue(run.stderr.contains(message), "\(name): \(run.stderr)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")), name)
    }
    let ratio = try lamina(["info", path("ratio.lottie")])
    XCTAssertTrue(
      ratio.stderr.contains(":1, over the limit of 200:1 (maxCompressionRatio)"), ratio.stderr)
  }

  /// A gzip bomb is refused from its trailer before inflating, and one whose
  /// trailer lies is stopped at the limit while inflating.
  func testGzipBombsAreRefused() throws {
    try python(
      """
      import gzip
      bomb = gzip.compress(b' ' * (40 << 20))
      open('bomb.tgs', 'wb').write(bomb)
      # The trailer says 100 bytes: inflating must stop at the limit itself.
      open('liar.tgs', 'wb').write(bomb[:-4] + (100).to_bytes(4, 'little'))
      """)
    let bomb = try lamina(["render", path("bomb.tgs"), "-o", path("out.png")])
    XCTAssertEqual(bomb.status, 1)
    XCTAssertTrue(
      bomb.stderr.contains("bomb.tgs: inflates to 41943040 bytes, over the limit of 33554432"),
      bomb.stderr)
    let liar = try lamina(["render", path("liar.tgs"), "-o", path("out.png")])
    XCTAssertEqual(liar.status, 1)
    XCTAssertTrue(
      liar.stderr.contains("liar.tgs: inflates to more than the limit of 33554432 bytes"),
      liar.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
  }
}
