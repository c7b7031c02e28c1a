import Synchronization

/// Runs operations that share a key one after another, in the order they
/// were enqueued, while operations with other keys run concurrently.
final class SerialLanes: Sendable {
  private struct Tail {
    let token: UInt64
    let task: Task<Void, Never>
  }

  /// The last operation enqueued per key, and a counter to recognise it.
  private let tails = Mutex<(next: UInt64, byKey: [String: Tail])>((0, [:]))

  /// Enqueues `operation` behind the previous one of `key`; returns its task.
  func enqueue(_ key: String, _ operation: @escaping @Sendable () async -> Void)
    -> Task<Void, Never>
  {
    tails.withLock { state in
      state.next += 1
      let token = state.next
      let previous = state.byKey[key]?.task
      let task = Task {
        await previous?.value
        await operation()
        self.release(key, token: token)
      }
      state.byKey[key] = Tail(token: token, task: task)
      return task
    }
  }

  private func release(_ key: String, token: UInt64) {
    tails.withLock { state in
      if state.byKey[key]?.token == token { state.byKey[key] = nil }
    }
  }
}
