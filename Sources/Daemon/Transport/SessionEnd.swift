import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// How a forwarded session is told to end before its input does: `exit`,
/// a client that closed its stdout, or a forwarder that went away. The
/// session's reader and writer block in poll(2) on the client's pipe and on
/// the forwarder's socket (`control`) together, so shutting the socket's
/// reading side down here wakes both, whatever they wait for: a read from a
/// pipe cannot be interrupted otherwise.
final class SessionEnd: Sendable {
  /// The connection to the session's forwarder.
  let control: Int32
  /// The status the session ends with once an end was asked for; `none` until then.
  private let requested = Atomic<Int32>(SessionEnd.none)
  private static let none = Int32.min

  init(control: Int32) {
    self.control = control
  }

  /// Ends the session with `status` (what a daemon of the client's own
  /// would exit with); the first request wins.
  func request(status: Int32) {
    let (first, _) = requested.compareExchange(
      expected: Self.none, desired: status, ordering: .acquiringAndReleasing)
    if first { shutdown(control, Int32(SHUT_RD)) }
  }

  var status: Int32? {
    let status = requested.load(ordering: .acquiring)
    return status == Self.none ? nil : status
  }

  var isRequested: Bool { status != nil }

  /// Waits until `fd` has `events` (POLLIN or POLLOUT); false when the
  /// session is to end instead (an end was asked for, or the forwarder
  /// closed its side: then the session ends with 0, as at the end of input).
  func wait(for events: Int16, on fd: Int32) -> Bool {
    // A tuple, not an array: no allocation on every read and write.
    var entries = (
      pollfd(fd: fd, events: events, revents: 0),
      pollfd(fd: control, events: Int16(POLLIN), revents: 0)
    )
    while true {
      let ready = withUnsafeMutablePointer(to: &entries) {
        $0.withMemoryRebound(to: pollfd.self, capacity: 2) { poll($0, 2, -1) }
      }
      if ready < 0 {
        if errno == EINTR { continue }
        return true  // Let the read or write itself report the problem.
      }
      if entries.1.revents != 0 {
        request(status: 0)
        return false
      }
      if entries.0.revents != 0 { return true }
    }
  }
}
