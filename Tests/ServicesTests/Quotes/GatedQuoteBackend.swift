import Synchronization

@testable import Services

/// A quote backend whose calls wait until the test lets each one finish, so a
/// test can hold several fetches open at once and end them in a chosen order.
final class GatedQuoteBackend: QuoteBackend {
  var kind: String { "gated" }

  private struct State {
    var waiting: [CheckedContinuation<Result<Quote, any Error>, Never>] = []
    /// The `excluding` argument of each `random` call, in call order.
    var excludedIDs: [String?] = []
  }

  private let state = Mutex(State())

  var waitingCount: Int { state.withLock { $0.waiting.count } }
  var excludedIDs: [String?] { state.withLock { $0.excludedIDs } }

  func random(_ filter: QuoteFilter, excluding excludedID: String?) async throws -> Quote {
    let result = await withCheckedContinuation { continuation in
      state.withLock {
        $0.excludedIDs.append(excludedID)
        $0.waiting.append(continuation)
      }
    }
    return try result.get()
  }

  func list(page: Int, limit: Int, author: String?, tags: [String]) async throws -> QuotePage {
    let quote = try await random(QuoteFilter(), excluding: nil)
    return QuotePage(items: [quote], page: page, nextPage: nil)
  }

  /// Waits (five seconds at most) until `count` calls are waiting.
  func waitForCalls(_ count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while waitingCount < count {
      guard ContinuousClock.now < deadline else { throw TimedOut() }
      try await Task.sleep(for: .milliseconds(1))
    }
  }

  struct TimedOut: Error {}

  /// Ends the call that has waited longest.
  func finishOldest(with result: Result<Quote, any Error>) {
    let continuation = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
    continuation?.resume(returning: result)
  }
}

/// Records what `QuotesService` reports through its `loading` closures.
final class LoadingRecorder: Sendable {
  private let events = Mutex<[Bool]>([])

  var recorded: [Bool] { events.withLock { $0 } }

  func record(_ isLoading: Bool) { events.withLock { $0.append(isLoading) } }
}
