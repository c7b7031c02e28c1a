#if canImport(Glibc)
  import Glibc
#endif

/// Runs `operation` as a task and blocks the calling thread until it returns.
///
/// For the command-line entry points: `main.swift` stays synchronous, because
/// asynchronous top-level code would run on the main actor, which the stdin
/// reader blocks.
func runBlocking<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
  BlockingOutcome(operation).wait()
}

/// `runBlocking`, but for at most `seconds`: nil once they passed (the task
/// goes on, its result unused).
func runBlocking<Result: Sendable>(
  atMost seconds: Double, _ operation: @escaping @Sendable () async -> Result
) -> Result? {
  BlockingOutcome(operation).wait(until: deadline(after: seconds))
}

/// The result of a task `runBlocking` started, waited for.
///
/// `@unchecked Sendable`: `value` is written once and read, both under `lock`.
private final class BlockingOutcome<Result: Sendable>: @unchecked Sendable {
  private let lock = ConditionLock()
  private var value: Result?

  /// Starts `operation` as a task whose result this keeps.
  init(_ operation: @escaping @Sendable () async -> Result) {
    Task {
      let value = await operation()
      lock.withLock {
        self.value = value
        lock.broadcast()
      }
    }
  }

  func wait() -> Result {
    lock.withLock {
      while true {
        if let value { return value }
        lock.wait()
      }
    }
  }

  /// The result, or nil once `limit` (CLOCK_REALTIME) passed without it.
  func wait(until limit: timespec) -> Result? {
    lock.withLock {
      while true {
        if let value { return value }
        guard lock.wait(until: limit) else { return value }
      }
    }
  }
}
