#if canImport(Glibc)
  import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel recorded it when
/// the connection was made: the daemon refuses every peer that is not its
/// own user, and a forwarder refuses a daemon that is not its user's.
///
/// Linux-only (`SO_PEERCRED`): a macOS port reads `LOCAL_PEERCRED` and
/// `LOCAL_PEERPID` here, and nowhere else.
struct PeerCredentials: Sendable, Equatable {
  let pid: Int32
  let uid: UInt32
  let gid: UInt32

  /// The peer of the connected socket `fd`; nil when `fd` is no connected Unix socket.
  static func of(_ fd: Int32) -> PeerCredentials? {
    // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`: three 32-bit
    // fields. Glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc
    // module is not built with, so it is read as three words.
    var words: (UInt32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout.size(ofValue: words))
    let result = withUnsafeMutableBytes(of: &words) {
      getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length)
    }
    guard result == 0, length == MemoryLayout.size(ofValue: words) else { return nil }
    return PeerCredentials(pid: Int32(bitPattern: words.0), uid: words.1, gid: words.2)
  }
}
