import Foundation

/// Where the control channel listens (`--control ADDRESS`): a Unix socket
/// (`unix:PATH`, the default kind) or a TCP port (`tcp:HOST:PORT`).
public enum ControlAddress: Equatable, CustomStringConvertible {
  case unix(path: String)
  case tcp(host: String, port: Int)

  /// Parses `unix:PATH`, `tcp:HOST:PORT` (`tcp:[::1]:PORT` for IPv6), or a
  /// bare path (a Unix socket).
  public init(_ text: String) throws {
    if text.hasPrefix("tcp:") {
      let rest = text.dropFirst(4)
      guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
        (0...65535).contains(port)
      else {
        throw ControlSetupError("'\(text)': a TCP address is tcp:HOST:PORT (port 0...65535)")
      }
      var host = String(rest[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      guard !host.isEmpty else {
        throw ControlSetupError("'\(text)': a TCP address is tcp:HOST:PORT (port 0...65535)")
      }
      self = .tcp(host: host, port: port)
      return
    }
    let path = text.hasPrefix("unix:") ? String(text.dropFirst(5)) : text
    guard !path.isEmpty, !path.utf8.contains(0) else {
      throw ControlSetupError("'\(text)': a Unix socket address is unix:PATH")
    }
    // sun_path holds 108 bytes with the terminating zero.
    guard path.utf8.count <= 107 else {
      throw ControlSetupError("'\(text)': a Unix socket path is at most 107 bytes")
    }
    self = .unix(path: path)
  }

  public var description: String {
    switch self {
    case .unix(let path): return "unix:\(path)"
    case .tcp(let host, let port):
      return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
    }
  }

  /// Whether the address is reachable only from this machine.
  public var isLocal: Bool {
    switch self {
    case .unix: return true
    case .tcp(let host, _):
      return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
  }
}

/// Why the control channel could not be set up: the address, a folder that
/// is not private, a token file, a socket already in use.
public struct ControlSetupError: Error, CustomStringConvertible {
  public let description: String
  public init(_ message: String) { description = "--control: " + message }
}

/// A listening socket of the control channel.
public enum ControlListener {
  /// Opens `address` for listening, non-blocking. A Unix socket is made
  /// with mode 0600 in a folder that the user owns and that no one else
  /// can write (a stale socket there is replaced; one in use is refused);
  /// a TCP address must be local unless `allowRemote`.
  static func open(_ address: ControlAddress, allowRemote: Bool) throws -> (
    descriptor: Int32, bound: ControlAddress
  ) {
    switch address {
    case .unix(let path): return (try unixSocket(path), address)
    case .tcp(let host, let port):
      guard address.isLocal || allowRemote else {
        throw ControlSetupError(
          "\(address) is not a loopback address; anyone who can reach it could change the display. Pass --control-allow-remote and --control-token FILE to allow it"
        )
      }
      return try tcpSocket(host: host, port: port)
    }
  }

  /// The folder a Unix socket goes in must be the user's alone: owned by
  /// the user (or root), writable by no one else.
  public static func checkFolder(_ folder: String) throws {
    var info = stat()
    guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw ControlSetupError("the socket's folder '\(folder)' does not exist")
    }
    let uid = geteuid()
    guard info.st_uid == uid else {
      throw ControlSetupError(
        "the socket's folder '\(folder)' belongs to another user (uid \(info.st_uid)); use a folder you own, such as $XDG_RUNTIME_DIR or systemd's RuntimeDirectory="
      )
    }
    guard info.st_mode & 0o022 == 0 else {
      throw ControlSetupError(
        "the socket's folder '\(folder)' is writable by others (mode \(String(info.st_mode & 0o777, radix: 8))); use a folder only you can write (chmod 700)"
      )
    }
  }

  private static func unixSocket(_ path: String) throws -> Int32 {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let folder = (absolute as NSString).deletingLastPathComponent
    try checkFolder(folder.isEmpty ? "/" : folder)
    var info = stat()
    if lstat(path, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFSOCK else {
        throw ControlSetupError("'\(path)' exists and is not a socket")
      }
      // A socket someone answers on is in use; one no one answers is stale.
      if let probe = try? connectUnix(path) {
        close(probe)
        throw ControlSetupError("'\(path)' is in use by another program")
      }
      unlink(path)
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ControlSetupError("socket(): \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
    }
    // Made 0600 from the start: no moment when others could connect.
    let saved = umask(0o177)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    umask(saved)
    guard bound == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw ControlSetupError("cannot listen on '\(path)': \(reason)")
    }
    chmod(path, 0o600)
    guard listen(fd, 16) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      unlink(path)
      throw ControlSetupError("cannot listen on '\(path)': \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return fd
  }

  /// A connected Unix socket (the client side), blocking.
  static func connectUnix(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ControlSetupError("socket(): \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw ControlSetupError("cannot connect to 'unix:\(path)': \(reason)")
    }
    return fd
  }

  /// Resolves `host` (numeric or a name) for a stream socket.
  private static func resolve(_ host: String, port: Int, passive: Bool) throws -> (
    family: Int32, address: [UInt8]
  ) {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = passive ? AI_PASSIVE : 0
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &result)
    guard status == 0, let first = result, let sockaddrPointer = first.pointee.ai_addr else {
      throw ControlSetupError("cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(result) }
    let bytes = [UInt8](
      UnsafeRawBufferPointer(start: sockaddrPointer, count: Int(first.pointee.ai_addrlen)))
    return (first.pointee.ai_family, bytes)
  }

  private static func tcpSocket(host: String, port: Int) throws -> (Int32, ControlAddress) {
    let (family, address) = try resolve(host, port: port, passive: true)
    let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ControlSetupError("socket(): \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    let bound = address.withUnsafeBytes {
      bind(
        fd, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw ControlSetupError("cannot listen on tcp:\(host):\(port): \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    // The port the system chose for port 0.
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    var actual = port
    let named = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    if named == 0 {
      withUnsafeBytes(of: &storage) { raw in
        // sin_port and sin6_port both follow the family, big-endian.
        actual = Int(raw[2]) << 8 | Int(raw[3])
      }
    }
    return (fd, .tcp(host: host, port: actual))
  }

  /// A connected TCP socket (the client side), blocking.
  static func connectTCP(host: String, port: Int) throws -> Int32 {
    let (family, address) = try resolve(host, port: port, passive: false)
    let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ControlSetupError("socket(): \(String(cString: strerror(errno)))") }
    let connected = address.withUnsafeBytes {
      Glibc.connect(
        fd, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw ControlSetupError("cannot connect to tcp:\(host):\(port): \(reason)")
    }
    return fd
  }

  /// A connection to `address` (the client side: `lamina ctl`, tests).
  public static func connect(_ address: ControlAddress) throws -> Int32 {
    switch address {
    case .unix(let path): return try connectUnix(path)
    case .tcp(let host, let port): return try connectTCP(host: host, port: port)
    }
  }

  /// Reads a token file: its first line, at least 16 bytes, in a file no
  /// one else can read.
  public static func token(at path: String) throws -> String {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      let data = FileManager.default.contents(atPath: path)
    else {
      throw ControlSetupError("cannot read the token file '\(path)'")
    }
    guard info.st_mode & 0o077 == 0 else {
      throw ControlSetupError(
        "the token file '\(path)' can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it"
      )
    }
    let token = String(decoding: data.prefix(4096), as: UTF8.self)
      .split(whereSeparator: \.isNewline).first.map(String.init)?
      .trimmingCharacters(in: .whitespaces) ?? ""
    guard token.utf8.count >= 16 else {
      throw ControlSetupError("the token in '\(path)' is shorter than 16 bytes")
    }
    return token
  }
}
