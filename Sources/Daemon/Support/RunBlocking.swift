/// Runs `operation` as a task and blocks the calling thread until it returns.
///
/// For the command-line entry points: `main.swift` stays synchronous, because
/// asynchronous top-level code would run on the main actor, which the stdin
/// reader blocks.
func runBlocking<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
  let outcome = BlockingOutcome<Result>()
  Task {
    let value = await operation()
    outcome.lock.withLock {
      outcome.value = value
      outcome.lock.broadcast()
    }
  }
  return outcome.lock.withLock {
    while true {
      if let value = outcome.value { return value }
      outcome.lock.wait()
    }
  }
}

/// `runBlocking`, but for at most `seconds`: nil once they passed (the task
/// goes on, its result unused).
func runBlocking<Result: Sendable>(
  atMost seconds: Double, _ operation: @escaping @Sendable () async -> Result
) -> Result? {
  let outcome = BlockingOutcome<Result>()
  Task {
    let value = await operation()
    outcome.lock.withLock {
      outcome.value = value
      outcome.lock.broadcast()
    }
  }
  let limit = deadline(after: seconds)
  return outcome.lock.withLock {
    while true {
      if let value = outcome.value { return value }
      guard outcome.lock.wait(until: limit) else { return outcome.value }
    }
  }
}

/// The result `runBlocking` waits for.
///
/// `@unchecked Sendable`: `value` is written once and read, both under `lock`.
private final class BlockingOutcome<Result>: @unchecked Sendable {
  let lock = ConditionLock()
  var value: Result?
}
