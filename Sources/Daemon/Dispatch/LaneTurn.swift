import Synchronization

/// One operation's place in its lane: the next operation starts once this one leaves.
final class LaneTurn: Sendable {
  /// Whether it left, and who waits for that.
  private let state = Mutex<(left: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  /// Lets the next operation of the lane start; later calls do nothing.
  func leave() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard !state.left else { return [] }
      state.left = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var hasLeft: Bool { state.withLock { $0.left } }

  func waitUntilLeft() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state in
        if state.left { return true }
        state.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }
}
