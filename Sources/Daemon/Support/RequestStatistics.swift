import Protocol
import Synchronization

/// Request counters for `daemon/status`, updated from any thread.
final class RequestStatistics: Sendable {
  enum Counter: CaseIterable {
    case received, succeeded, failed, cancelled, parseError
  }

  /// Requests and invalid messages received.
  private let received = Atomic<Int>(0)
  /// Replies with a result.
  private let succeeded = Atomic<Int>(0)
  /// Replies with an error other than a cancellation.
  private let failed = Atomic<Int>(0)
  /// Replies with -32800.
  private let cancelled = Atomic<Int>(0)
  /// Messages that were not JSON or could not be framed.
  private let parseError = Atomic<Int>(0)
  /// Requests whose handlers run as tasks now.
  let inFlight = Atomic<Int>(0)

  func count(_ counter: Counter) {
    switch counter {
    case .received: received.add(1, ordering: .relaxed)
    case .succeeded: succeeded.add(1, ordering: .relaxed)
    case .failed: failed.add(1, ordering: .relaxed)
    case .cancelled: cancelled.add(1, ordering: .relaxed)
    case .parseError: parseError.add(1, ordering: .relaxed)
    }
  }

  func value(_ counter: Counter) -> Int {
    switch counter {
    case .received: received.load(ordering: .relaxed)
    case .succeeded: succeeded.load(ordering: .relaxed)
    case .failed: failed.load(ordering: .relaxed)
    case .cancelled: cancelled.load(ordering: .relaxed)
    case .parseError: parseError.load(ordering: .relaxed)
    }
  }

  var json: JSON {
    var object = JSONObject()
    for counter in Counter.allCases {
      object["\(counter)"] = JSON(value(counter))
    }
    return .object(object)
  }
}
