import Protocol
import Synchronization
import XCTest

@testable import Services

/// A scriptable paged source: items are `"<label>-<index>"` strings (their
/// id the index), pages numbered from 1; it can fail a call, hold a call
/// until released, and counts what it fetched. Live, of the topic of its
/// name, but it cannot place a change: a change reloads its feeds.
final class FakeFeedSource: LiveFeedSource {
  enum EndDetection: Sendable {
    /// `next` is nil on the page that holds the last item (a short or exact last page).
    case exact
    /// `next` is nil only on a short page, so a full last page is followed by an empty one.
    case shortPage
  }

  private struct State {
    var label = "a"
    /// Page numbers fetched, in call order (calls that failed or were held included).
    var calls: [Int] = []
    /// Calls (by 0-based call index) that fail once.
    var failures: [Int: any Error] = [:]
    /// Calls (by 0-based call index) that wait until `release`.
    var held: Set<Int> = []
    /// Held calls that also ignore cancellation (a slow upstream).
    var stubborn: Set<Int> = []
  }

  let name: String
  let total: Int
  let endDetection: EndDetection
  private let state = Mutex(State())

  init(name: String = "photos", total: Int, endDetection: EndDetection = .exact) {
    self.name = name
    self.total = total
    self.endDetection = endDetection
  }

  var topic: String { name }
  var appliesChanges: Bool { false }
  func item(for record: FeedRecord) -> FeedItem? { nil }

  var calls: [Int] { state.withLock { $0.calls } }
  func setLabel(_ label: String) { state.withLock { $0.label = label } }
  func fail(call: Int, with error: any Error) { state.withLock { $0.failures[call] = error } }
  func hold(call: Int, ignoringCancellation: Bool = false) {
    state.withLock {
      $0.held.insert(call)
      if ignoringCancellation { $0.stubborn.insert(call) }
    }
  }
  func release(call: Int) { state.withLock { _ = $0.held.remove(call) } }

  /// Waits until `count` calls have started.
  func waitForCalls(_ count: Int) async throws {
    for _ in 0..<2_000 {
      if calls.count >= count { return }
      try await Task.sleep(for: .milliseconds(1))
    }
    XCTFail("only \(calls.count) of \(count) fetches started")
  }

  func fetch(after position: FeedPosition?, pageSize: Int) async throws -> FeedPage {
    let page = position?.pageNumber ?? 1
    let (call, label) = state.withLock { state in
      state.calls.append(page)
      return (state.calls.count - 1, state.label)
    }
    while state.withLock({ $0.held.contains(call) }) {
      if state.withLock({ $0.stubborn.contains(call) }) {
        try? await Task.sleep(for: .milliseconds(1))
      } else {
        try await Task.sleep(for: .milliseconds(1))
      }
    }
    if let error = state.withLock({ $0.failures.removeValue(forKey: call) }) { throw error }
    let start = min((page - 1) * pageSize, total)
    let end = min(start + pageSize, total)
    let items = (start..<end).map { FeedItem(id: "\($0)", key: nil, json: JSON("\(label)-\($0)")) }
    let isLast =
      switch endDetection {
      case .exact: end >= total
      case .shortPage: items.count < pageSize
      }
    return FeedPage(items: items, next: isLast ? nil : .page(page + 1))
  }
}

/// Records a feed's events as short strings: `state loading 30`,
/// `page g0 0..<30 end reset`, `state failed 30 !`, `changed g0 30 [update 0 30]`.
final class FeedEventLog: Sendable {
  private let events = Mutex<[String]>([])

  var notify: FeedEngine.Notify {
    { event in self.record(event) }
  }

  var all: [String] { events.withLock { $0 } }

  func clear() { events.withLock { $0.removeAll() } }

  private func record(_ event: FeedEvent) {
    let line: String
    switch event {
    case .pageLoaded(_, let generation, let start, let end, let items, let endReached, let reset):
      precondition(items.count == end - start)
      line =
        "page g\(generation) \(start)..<\(end)" + (endReached ? " end" : "")
        + (reset ? " reset" : "")
    case .itemsChanged(_, let generation, let changes, let count):
      let steps = changes.map { step in
        switch step {
        case .insert(let index, let items): "insert \(index) \(items.count)"
        case .remove(let index, let count): "remove \(index) \(count)"
        case .update(let index, let items): "update \(index) \(items.count)"
        }
      }
      line = "changed g\(generation) \(count) [\(steps.joined(separator: ", "))]"
    case .stateChanged(_, let state, let count, let error):
      line = "state \(state.rawValue) \(count)" + (error == nil ? "" : " !")
    }
    events.withLock { $0.append(line) }
  }
}

struct FakeUpstreamError: Error, Equatable {}
