import Foundation
import Lamina
import LaminaDisplay
import LaminaRender
import LaminaScene
import XCTest

/// Who may reach the control channel: private socket folders, loopback TCP
/// unless allowed, tokens in private files.
final class ControlSecurityTests: XCTestCase {
  private var folder: URL!
  private var loop: DisplayLoop!

  override func setUpWithError() throws {
    folder = URL(fileURLWithPath: "/tmp/lamina-sec-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    chmod(folder.path, 0o700)
    let url = folder.appendingPathComponent("scene.json")
    try ControlChannelTests.scene.write(to: url, atomically: true, encoding: .utf8)
    let renderer = try ControlChannelTests.renderer()
    let output = try HeadlessOutput(width: 20, height: 10, paced: false, context: renderer.context)
    loop = DisplayLoop(output: output, watcher: try SceneWatcher(url: url), renderer: renderer)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func refusal(_ address: ControlAddress, policy: ControlPolicy = ControlPolicy(), allowRemote: Bool = false)
    -> String?
  {
    do {
      let server = try ControlServer(address: address, loop: loop, policy: policy, allowRemote: allowRemote)
      _ = server
      return nil
    } catch {
      return "\(error)"
    }
  }

  func testAUnixSocketIsMadePrivateInAPrivateFolder() throws {
    let path = folder.appendingPathComponent("c.sock").path
    let server = try ControlServer(address: .unix(path: path), loop: loop, policy: ControlPolicy())
    var info = stat()
    XCTAssertEqual(lstat(path, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    server.start()
    // A second display on the same socket is refused while the first runs.
    XCTAssertEqual(
      refusal(.unix(path: path)), "--control: '\(path)' is in use by another program")
    server.stop()
  }

  func testAFolderOthersCanWriteIsRefused() throws {
    let shared = folder.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(shared.path, 0o777)
    XCTAssertEqual(
      refusal(.unix(path: shared.appendingPathComponent("c.sock").path)),
      "--control: the socket's folder '\(shared.path)' is writable by others (mode 777); use a folder only you can write (chmod 700)"
    )
  }

  func testAFolderOfAnotherUserIsRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("making a folder another user owns needs root") }
    let theirs = folder.appendingPathComponent("theirs")
    try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
    chmod(theirs.path, 0o700)
    XCTAssertEqual(chown(theirs.path, 65534, 65534), 0)
    XCTAssertEqual(
      refusal(.unix(path: theirs.appendingPathComponent("c.sock").path)),
      "--control: the socket's folder '\(theirs.path)' belongs to another user (uid 65534); use a folder you own, such as $XDG_RUNTIME_DIR or systemd's RuntimeDirectory="
    )
  }

  func testAFileInTheWayIsNotReplaced() throws {
    let path = folder.appendingPathComponent("c.sock").path
    try "precious".write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertEqual(refusal(.unix(path: path)), "--control: '\(path)' exists and is not a socket")
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "precious")
  }

  func testANonLoopbackAddressNeedsTheFlagAndAToken() throws {
    let address = try ControlAddress("tcp:0.0.0.0:0")
    XCTAssertFalse(address.isLocal)
    XCTAssertEqual(
      refusal(address, policy: ControlPolicy(token: "0123456789abcdef")),
      "--control: tcp:0.0.0.0:0 is not a loopback address; anyone who can reach it could change the display. Pass --control-allow-remote and --control-token FILE to allow it"
    )
    XCTAssertEqual(
      refusal(address, allowRemote: true),
      "--control: tcp:0.0.0.0:0 is not a loopback address: --control-token FILE is required with --control-allow-remote"
    )
    XCTAssertNil(refusal(address, policy: ControlPolicy(token: "0123456789abcdef"), allowRemote: true))
  }

  func testLoopbackTCPServesClients() throws {
    let server = try ControlServer(
      address: try ControlAddress("tcp:127.0.0.1:0"), loop: loop, policy: ControlPolicy())
    server.start()
    defer { server.stop() }
    guard case .tcp(let host, let port) = server.address else { return XCTFail("\(server.address)") }
    XCTAssertEqual(host, "127.0.0.1")
    XCTAssertGreaterThan(port, 0)
    let client = try TestClient(server.address)
    defer { client.close() }
    try client.send(#"{"subscribe": "stats"}"#)
    let reply = try ControlChannelTests.parse(try XCTUnwrap(client.line(timeout: 2)))
    XCTAssertEqual(reply["topics"] as? [String], ["stats"])
  }

  func testTokenFilesMustExistBePrivateAndLongEnough() throws {
    let missing = folder.appendingPathComponent("none").path
    XCTAssertThrowsError(try ControlListener.token(at: missing)) {
      XCTAssertEqual("\($0)", "--control: cannot read the token file '\(missing)'")
    }
    let file = folder.appendingPathComponent("token").path
    try "0123456789abcdef-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
    chmod(file, 0o644)
    XCTAssertThrowsError(try ControlListener.token(at: file)) {
      XCTAssertEqual(
        "\($0)", "--control: the token file '\(file)' can be read by others (mode 644); chmod 600 it")
    }
    chmod(file, 0o600)
    XCTAssertEqual(try ControlListener.token(at: file), "0123456789abcdef-secret")
    try "short".write(toFile: file, atomically: true, encoding: .utf8)
    chmod(file, 0o600)
    XCTAssertThrowsError(try ControlListener.token(at: file)) {
      XCTAssertEqual("\($0)", "--control: the token in '\(file)' is shorter than 16 bytes")
    }
  }

  func testAddressesParse() throws {
    XCTAssertEqual(try ControlAddress("unix:/run/k.sock"), .unix(path: "/run/k.sock"))
    XCTAssertEqual(try ControlAddress("/run/k.sock"), .unix(path: "/run/k.sock"))
    XCTAssertEqual(try ControlAddress("tcp:[::1]:9000"), .tcp(host: "::1", port: 9000))
    XCTAssertTrue(try ControlAddress("tcp:[::1]:9000").isLocal)
    XCTAssertThrowsError(try ControlAddress("tcp:127.0.0.1:99999"))
    XCTAssertThrowsError(try ControlAddress("unix:" + String(repeating: "x", count: 200)))
  }
}
