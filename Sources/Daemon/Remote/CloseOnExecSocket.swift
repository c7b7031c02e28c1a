#if canImport(Glibc)
  import Glibc
#endif

/// Unix stream sockets that are closed on exec from the moment they exist:
/// a daemon started with posix_spawn by another thread at that instant must
/// not inherit a session's connection, or the session would stay open after
/// the daemon that served it closed its end.
///
/// The same holds for the descriptors a forwarder hands over with
/// `SCM_RIGHTS` (`SessionHandoff`): they are the client's pipes.
///
/// Linux-only (`SOCK_CLOEXEC`, `accept4`, `MSG_CMSG_CLOEXEC`): a macOS port
/// sets `FD_CLOEXEC` with fcntl here, and nowhere else.
enum CloseOnExecSocket {
  /// recvmsg(2)'s flags that make the descriptors received closed on exec
  /// (`MSG_CMSG_CLOEXEC`, declared by glibc only under `_GNU_SOURCE`).
  static let receiveFlags: Int32 = 0x4000_0000

  /// A new AF_UNIX stream socket, or -1 with errno set.
  static func stream() -> Int32 {
    socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  }

  /// The next connection of `listener`, or -1 with errno set.
  static func accept(_ listener: Int32) -> Int32 {
    if let accept4 = AcceptWithFlags.shared.pointer {
      return accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
    }
    let fd = Glibc.accept(listener, nil, nil)
    if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fd
  }

  /// accept4(2), looked up once: glibc declares it only under `_GNU_SOURCE`,
  /// which Swift's Glibc module is not built with.
  private struct AcceptWithFlags: @unchecked Sendable {
    // `@unchecked Sendable`: a C function pointer, immutable once looked up.
    typealias Function =
      @convention(c) (
        Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
      )
      -> Int32
    let pointer: Function?

    static let shared = AcceptWithFlags(
      pointer: dlsym(nil, "accept4").map { unsafeBitCast($0, to: Function.self) })
  }
}
