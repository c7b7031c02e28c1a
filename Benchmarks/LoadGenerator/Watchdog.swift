import Glibc
import Services
import Synchronization

/// Kills a daemon that has not finished in time, so that a hung daemon ends the bench's
/// blocking reads (at end of file) instead of hanging it. The reads stay plain blocking reads:
/// a poll before each would add a system call to every ping-pong round trip.
final class Watchdog: Sendable {
  private struct State {
    /// The daemon being watched and when it is due to have finished.
    var watched: (pid: pid_t, deadline: UInt64)?
    /// Daemons this watchdog killed.
    var killed: Set<pid_t> = []
  }

  private let state = Mutex(State())

  /// Starts the checking thread, which runs until the bench exits.
  init() throws {
    _ = try NativeThread { [self] in
      // Four checks a second: a timeout is coarse, and rare wake-ups stay out of the figures.
      var interval = timespec(tv_sec: 0, tv_nsec: 250_000_000)
      while true {
        nanosleep(&interval, nil)
        self.state.withLock { state in
          guard let watched = state.watched, monotonicNanoseconds() >= watched.deadline
          else { return }
          kill(watched.pid, SIGKILL)
          state.killed.insert(watched.pid)
          state.watched = nil
        }
      }
    }
  }

  /// Watches `pid` from now on, in place of any daemon watched before.
  func watch(_ pid: pid_t, seconds: Int) {
    let deadline = monotonicNanoseconds() + UInt64(seconds) * 1_000_000_000
    state.withLock { $0.watched = (pid, deadline) }
  }

  /// Stops watching `pid`, which has ended.
  func release(_ pid: pid_t) {
    state.withLock { state in
      if state.watched?.pid == pid { state.watched = nil }
    }
  }

  /// Whether `pid` ended because this watchdog killed it.
  func killed(_ pid: pid_t) -> Bool {
    state.withLock { $0.killed.contains(pid) }
  }
}
