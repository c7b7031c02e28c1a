#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive flock(2) on a file, held until the value is released or the
/// process ends, whichever comes first: a forwarder that dies while it
/// holds it cannot leave the others locked out.
final class LockFile {
  private let fd: Int32

  /// Waits for the lock; the file is made (mode 0600) when missing.
  init(path: String) throws(RemoteError) {
    // Close-on-exec: a daemon started while the lock is held must not hold it for its whole life.
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { throw .system(call: "open the lock file", path: path, errno: errno) }
    while flock(fd, LOCK_EX) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(fd)
      throw .system(call: "lock", path: path, errno: code)
    }
    self.fd = fd
  }

  deinit { close(fd) }
}
