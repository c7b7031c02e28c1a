#if canImport(Glibc)
  import Glibc
#endif

/// The Unix stream sockets between forwarders and a shared daemon. Never
/// TCP: only processes of this machine that may enter the socket's folder
/// can connect at all, and the daemon can ask each peer who it is
/// (`PeerCredentials`).
enum UnixSocket {
  /// The longest path `sockaddr_un.sun_path` holds, its final NUL aside (107 on Linux).
  static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// A socket listening on `path`, readable and writable by this user only.
  ///
  /// A socket left at `path` by a daemon that was killed (nothing accepts on
  /// it: ECONNREFUSED) is replaced; one that a daemon still answers on is
  /// not, and neither is a file that is no socket. Two daemons binding the
  /// same path at the same moment can both find it stale: callers that may
  /// race hold the starter's lock file (`SharedDaemonStarter`).
  static func listen(path: String, backlog: Int32 = 128) throws(RemoteError) -> Int32 {
    let address = try address(of: path)
    // Each round replaces a stale socket; a path that turns stale again and
    // again is being fought over by another process.
    for _ in 0..<3 {
      let fd = CloseOnExecSocket.stream()
      guard fd >= 0 else { throw .system(call: "create a socket for", path: path, errno: errno) }
      if withSocketAddress(address, { bind(fd, $0, $1) }) == 0 {
        // Before listen(2), so that nobody connects while the mode still
        // comes from the umask: the folder is private too, this is the second lock.
        guard chmod(path, 0o600) == 0 else {
          let code = errno
          close(fd)
          unlink(path)
          throw .system(call: "restrict the mode of", path: path, errno: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
          let code = errno
          close(fd)
          unlink(path)
          throw .system(call: "listen on", path: path, errno: code)
        }
        return fd
      }
      let code = errno
      close(fd)
      guard code == EADDRINUSE else { throw .system(call: "bind", path: path, errno: code) }
      try removeStaleSocket(at: path)
    }
    throw .alreadyServing(path)
  }

  /// Removes the socket at `path` when nothing accepts on it any more.
  private static func removeStaleSocket(at path: String) throws(RemoteError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return }
      throw .system(call: "inspect", path: path, errno: errno)
    }
    guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
    do throws(RemoteError) {
      let probe = try connect(path: path)
      close(probe)
      throw .alreadyServing(path)
    } catch .notListening {
      guard unlink(path) == 0 || errno == ENOENT else {
        throw .system(call: "remove the stale socket", path: path, errno: errno)
      }
    }
  }

  /// The next connection, closed on exec; nil once the listener is shut
  /// down (`stopAccepting`) or closed. Connections that fail before they are
  /// accepted are skipped; running out of descriptors or memory waits and
  /// tries again, since the connection keeps its place in the backlog.
  static func accept(_ listener: Int32) -> Int32? {
    while true {
      let fd = CloseOnExecSocket.accept(listener)
      if fd >= 0 { return fd }
      let code = errno
      switch code {
      case EINTR, ECONNABORTED, EPROTO:
        continue
      case EMFILE, ENFILE, ENOBUFS, ENOMEM:
        Log.warn("cannot accept a connection now; retrying", ["errno": String(code)])
        usleep(100_000)
      default:
        return nil
      }
    }
  }

  /// Wakes a thread blocked in `accept` (which then returns nil) and refuses
  /// new connections; close(2) alone does not wake it on Linux. Close the
  /// descriptor after the accepting thread has returned.
  static func stopAccepting(_ listener: Int32) {
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// A connection to the daemon listening on `path`, closed on exec.
  /// `.notListening` when there is no socket there or nothing accepts on it.
  static func connect(path: String) throws(RemoteError) -> Int32 {
    let address = try address(of: path)
    while true {
      let fd = CloseOnExecSocket.stream()
      guard fd >= 0 else { throw .system(call: "create a socket for", path: path, errno: errno) }
      if withSocketAddress(address, { Glibc.connect(fd, $0, $1) }) == 0 { return fd }
      let code = errno
      close(fd)
      switch code {
      // A signal interrupted the connect; a Unix socket's is quick to redo.
      case EINTR: continue
      case ENOENT, ECONNREFUSED: throw .notListening(path)
      default: throw .system(call: "connect to", path: path, errno: code)
      }
    }
  }

  private static func address(of path: String) throws(RemoteError) -> sockaddr_un {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, !bytes.contains(0) else {
      throw .system(call: "use the socket path", path: "\"\(path)\"", errno: EINVAL)
    }
    guard bytes.count <= maxPathBytes else {
      throw .pathTooLong(path: path, limit: maxPathBytes)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    return address
  }

  private static func withSocketAddress(
    _ address: sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    var address = address
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }
}
