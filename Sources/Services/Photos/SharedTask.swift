import Synchronization

/// One piece of work that several callers wait for: it runs once, in a task
/// of its own, and each caller gets its result. A caller whose task is
/// cancelled stops waiting at once (with `CancellationError`); the work goes
/// on for the others, and to completion when no one waits any more (its
/// result may still be kept, like a downloaded image or a finished scan).
final class SharedTask<Value: Sendable>: Sendable {
  private struct State {
    /// The outcome, once the work ended.
    var result: Result<Value, any Error>?
    /// Callers waiting, by a number of their own.
    var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    /// The number of the next caller.
    var nextWaiter: UInt64 = 0
  }

  private let state = Mutex(State())

  /// Starts `operation` now.
  init(_ operation: @escaping @Sendable () async throws -> Value) {
    Task { [self] in
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      let waiters = state.withLock { state in
        state.result = result
        defer { state.waiters = [:] }
        return state.waiters.values
      }
      for waiter in waiters { waiter.resume(with: result) }
    }
  }

  /// Whether the work has ended.
  var isFinished: Bool { state.withLock { $0.result != nil } }

  /// Whether the work has ended with an error.
  var hasFailed: Bool {
    state.withLock { state in
      if case .failure = state.result { return true }
      return false
    }
  }

  /// The work's result, waiting for it if need be.
  func value() async throws -> Value {
    let waiter = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready: Result<Value, any Error>? = state.withLock { state in
          if let result = state.result { return result }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiters[waiter] = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let continuation = state.withLock { $0.waiters.removeValue(forKey: waiter) }
      continuation?.resume(throwing: CancellationError())
    }
  }
}
