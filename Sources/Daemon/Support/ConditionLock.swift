#if canImport(Glibc)
  import Glibc
#endif

/// A mutex with a condition variable, for the daemon's own threads (the
/// stdin reader and the stdout writer) that block while waiting for room or
/// work. Swift tasks never wait on it.
///
/// `@unchecked Sendable`: the pthread objects are designed for use from many
/// threads, are allocated once and freed only in `deinit`.
final class ConditionLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits for a broadcast; the caller holds the lock (inside `withLock`).
  func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// Waits for a broadcast or until `deadline` (CLOCK_REALTIME); false on time-out.
  func wait(until deadline: timespec) -> Bool {
    var deadline = deadline
    return pthread_cond_timedwait(condition, mutex, &deadline) == 0
  }

  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}

/// The CLOCK_REALTIME time `seconds` from now, for `ConditionLock.wait(until:)`.
func deadline(after seconds: Double) -> timespec {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  let nanoseconds = Int(now.tv_nsec) + Int(seconds.truncatingRemainder(dividingBy: 1) * 1e9)
  return timespec(
    tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
    tv_nsec: nanoseconds % 1_000_000_000)
}
