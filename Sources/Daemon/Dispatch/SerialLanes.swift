import Synchronization

/// Runs operations that share a key one after another, in the order they
/// were enqueued, while operations with other keys run concurrently. An
/// operation may leave its lane before it ends (`LaneTurn.leave`): the next
/// one starts then, so a request can take effect in order and then wait
/// alongside later ones (a feed's `loadMore` that later calls join).
final class SerialLanes: Sendable {
  private struct Tail {
    let token: UInt64
    let turn: LaneTurn
  }

  /// The last operation enqueued per key, and a counter to recognise it.
  private let tails = Mutex<(next: UInt64, byKey: [String: Tail])>((0, [:]))

  /// Enqueues `operation` behind the previous one of `key`; it starts when
  /// that one has ended or left the lane. Returns its task.
  func enqueue(
    _ key: String, turn: LaneTurn = LaneTurn(), _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    tails.withLock { state in
      state.next += 1
      let token = state.next
      let previous = state.byKey[key]?.turn
      let task = Task {
        await previous?.waitUntilLeft()
        await operation()
        turn.leave()
        self.release(key, token: token)
      }
      state.byKey[key] = Tail(token: token, turn: turn)
      return task
    }
  }

  /// Whether an operation enqueued on `key` now would start at once: none
  /// is waiting or running there, or the last one left the lane.
  func isIdle(_ key: String) -> Bool {
    tails.withLock { $0.byKey[key]?.turn.hasLeft ?? true }
  }

  private func release(_ key: String, token: UInt64) {
    tails.withLock { state in
      if state.byKey[key]?.token == token { state.byKey[key] = nil }
    }
  }
}
