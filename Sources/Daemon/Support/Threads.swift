import Services

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a detached OS thread running `body`, or ends the process: the
/// daemon's reader and writer block in read(2) and write(2), which must not
/// happen on the Swift concurrency pool, and it cannot serve without them.
func startThread(stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
  guard DedicatedThread.start(stackSize: stackSize, body) else {
    Log.error("could not start a thread", ["errno": "\(errno)"])
    exit(70)
  }
}

/// Monotonic seconds, for durations.
func monotonicSeconds() -> Double {
  Double(monotonicNanoseconds()) / 1e9
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false when
/// the other end is gone or another error stops it.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  var offset = 0
  while offset < bytes.count {
    guard let base = bytes.baseAddress else { return true }
    let written = write(fd, base + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR || errno == EAGAIN { continue }
      return false
    }
    offset += written
  }
  return true
}

/// Whether a write to `fd` would not wait now: it has room (a pipe has at
/// least a page free), or the other end is gone so the write fails at once.
/// False when unsure, so callers that must not block leave the write to a
/// thread that may.
func isWritable(_ fd: Int32) -> Bool {
  var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
  guard poll(&entry, 1, 0) == 1 else { return false }
  return entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0
}

/// Writes `text` and a newline to `fd` (1 or 2), whole, for the commands' messages.
func printLine(_ text: String, to fd: Int32 = 2) {
  Array((text + "\n").utf8).withUnsafeBytes { _ = writeAll(fd, $0) }
}
