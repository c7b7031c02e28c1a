import Protocol
import XCTest

@testable import Services

final class FeedEngineTests: XCTestCase {
  private func items(_ label: String, _ range: Range<Int>) -> [JSON] {
    range.map { JSON("\(label)-\($0)") }
  }

  func testPagesAppendInOrderAndTheShortLastPageEndsTheFeed() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 70)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    var ranges: [FeedRange] = []
    for _ in 0..<4 { ranges.append(try await engine.loadMore(id, notify: log.notify)) }
    XCTAssertEqual(
      ranges,
      [
        FeedRange(start: 0, end: 30, endReached: false),
        FeedRange(start: 30, end: 60, endReached: false),
        FeedRange(start: 60, end: 70, endReached: true),
        FeedRange(start: 70, end: 70, endReached: true),
      ])
    XCTAssertEqual(source.calls, [1, 2, 3], "no fetch once the end is reached")
    XCTAssertEqual(
      log.all,
      [
        "state loading 0", "page g0 0..<30", "state idle 30",
        "state loading 30", "page g0 30..<60", "state idle 60",
        "state loading 60", "page g0 60..<70 end", "state ended 70",
      ])
    let loaded = try await engine.items(id, start: 0, end: 70)
    XCTAssertEqual(loaded, items("a", 0..<70))
  }

  func testAnEmptyPagePastTheEndAppendsNothingAndEndsTheFeed() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 60, endDetection: .shortPage)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    _ = try await engine.loadMore(id, notify: log.notify)
    let last = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(last, FeedRange(start: 60, end: 60, endReached: true))
    XCTAssertEqual(source.calls, [1, 2, 3])
    XCTAssertEqual(
      Array(log.all.suffix(3)), ["state loading 60", "page g0 60..<60 end", "state ended 60"])
    let status = try await engine.status(id)
    XCTAssertEqual(status.state, .ended)
    XCTAssertEqual(status.count, 60)
  }

  func testALoadMoreWhileOneRunsJoinsItWithOneFetch() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    source.hold(call: 0)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    let first = Task { try await engine.loadMore(id, notify: log.notify) }
    try await source.waitForCalls(1)
    // Joined once begun: no wait for the joining calls to be scheduled.
    let second = try await engine.beginLoadMore(id, notify: log.notify)
    let third = try await engine.beginLoadMore(id, notify: log.notify)
    source.release(call: 0)
    let expected = FeedRange(start: 0, end: 30, endReached: false)
    let results = [try await first.value, try await second.value, try await third.value]
    XCTAssertEqual(results, [expected, expected, expected])
    XCTAssertEqual(source.calls, [1], "one upstream fetch for joined callers")
    XCTAssertEqual(log.all, ["state loading 0", "page g0 0..<30", "state idle 30"])
  }

  func testAFailedLoadKeepsTheNextPageAndTheRetryFetchesItAgain() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    source.fail(call: 1, with: FakeUpstreamError())
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    do {
      _ = try await engine.loadMore(id, notify: log.notify)
      XCTFail("expected the upstream error")
    } catch {
      XCTAssertEqual(error as? FakeUpstreamError, FakeUpstreamError())
    }
    var status = try await engine.status(id)
    XCTAssertEqual(status.state, .failed)
    XCTAssertEqual(status.count, 30)
    let retry = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(retry, FeedRange(start: 30, end: 60, endReached: false))
    XCTAssertEqual(source.calls, [1, 2, 2], "the failed page is fetched again, none skipped")
    XCTAssertEqual(
      Array(log.all.dropFirst(3)),
      [
        "state loading 30", "state failed 30 !", "state loading 30", "page g0 30..<60",
        "state idle 60",
      ])
    status = try await engine.status(id)
    XCTAssertEqual(status.state, .idle)
    let loaded = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(loaded, items("a", 0..<60))
  }

  func testJoinedCallersOfAFailedLoadGetTheSameError() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    source.hold(call: 0)
    source.fail(call: 0, with: FakeUpstreamError())
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    let first = Task { try await engine.loadMore(id, notify: log.notify) }
    try await source.waitForCalls(1)
    let second = try await engine.beginLoadMore(id, notify: log.notify)
    source.release(call: 0)
    for task in [first, second] {
      do {
        _ = try await task.value
        XCTFail("expected the upstream error")
      } catch {
        XCTAssertEqual(error as? FakeUpstreamError, FakeUpstreamError())
      }
    }
    XCTAssertEqual(source.calls, [1])
    XCTAssertEqual(log.all, ["state loading 0", "state failed 0 !"])
  }

  func testRefreshAbandonsARunningAppendAndItsCallerGetsTheRefreshRange() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    source.hold(call: 1)
    let append = Task { try await engine.loadMore(id, notify: log.notify) }
    try await source.waitForCalls(2)
    source.setLabel("b")
    let refreshed = try await engine.refresh(id, notify: log.notify)
    let expected = FeedRange(start: 0, end: 30, endReached: false)
    XCTAssertEqual(refreshed, expected)
    let appended = try await append.value
    XCTAssertEqual(appended, expected, "the abandoned append answers with the refresh's range")
    XCTAssertEqual(source.calls, [1, 2, 1])
    XCTAssertEqual(
      Array(log.all.dropFirst(3)),
      ["state loading 30", "state refreshing 30", "page g1 0..<30 reset", "state idle 30"])
    let loaded = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(loaded, items("b", 0..<30))
    // The next append continues the new generation with page 2.
    let next = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(next, FeedRange(start: 30, end: 60, endReached: false))
    XCTAssertEqual(source.calls, [1, 2, 1, 2])
    XCTAssertEqual(Array(log.all.suffix(2)), ["page g1 30..<60", "state idle 60"])
  }

  func testAPageOfAnOlderGenerationThatArrivesLateIsNeverDelivered() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    source.hold(call: 0, ignoringCancellation: true)
    let append = Task { try await engine.loadMore(id, notify: log.notify) }
    try await source.waitForCalls(1)
    source.setLabel("b")
    let refreshed = try await engine.refresh(id, notify: log.notify)
    XCTAssertEqual(refreshed, FeedRange(start: 0, end: 30, endReached: false))
    source.release(call: 0)  // the slow upstream answers now, for generation 0
    let appended = try await append.value
    XCTAssertEqual(appended, refreshed)
    XCTAssertEqual(
      log.all, ["state loading 0", "state refreshing 0", "page g1 0..<30 reset", "state idle 30"])
    let loaded = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(loaded, items("b", 0..<30))
  }

  func testEachRefreshReloadsWhatIsLoadedAsANewGenerationAndALoadMoreDuringItJoinsIt()
    async throws
  {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    _ = try await engine.loadMore(id, notify: log.notify)
    _ = try await engine.refresh(id, notify: log.notify)
    source.hold(call: 5)
    let refresh = Task { try await engine.refresh(id, notify: log.notify) }
    try await source.waitForCalls(6)
    let joined = try await engine.beginLoadMore(id, notify: log.notify)
    source.release(call: 5)
    let expected = FeedRange(start: 0, end: 60, endReached: false)
    let refreshed = try await refresh.value
    let joinedRange = try await joined.value
    XCTAssertEqual(refreshed, expected)
    XCTAssertEqual(joinedRange, expected)
    XCTAssertEqual(source.calls, [1, 2, 1, 2, 1, 2], "a refresh reloads both loaded pages")
    XCTAssertEqual(
      log.all,
      [
        "state loading 0", "page g0 0..<30", "state idle 30",
        "state loading 30", "page g0 30..<60", "state idle 60",
        "state refreshing 60", "page g1 0..<60 reset", "state idle 60",
        "state refreshing 60", "page g2 0..<60 reset", "state idle 60",
      ])
    let status = try await engine.status(id)
    XCTAssertEqual(status.generation, 2)
  }

  func testARefreshThatFailsLeavesTheItemsAndTheNextPageAsTheyWere() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    source.fail(call: 1, with: FakeUpstreamError())
    do {
      _ = try await engine.refresh(id, notify: log.notify)
      XCTFail("expected the upstream error")
    } catch {}
    let status = try await engine.status(id)
    XCTAssertEqual(status.generation, 0)
    XCTAssertEqual(status.count, 30)
    let range = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(range, FeedRange(start: 30, end: 60, endReached: false))
    XCTAssertEqual(source.calls, [1, 1, 2])
    XCTAssertEqual(
      Array(log.all.dropFirst(3)),
      [
        "state refreshing 30", "state failed 30 !", "state loading 30", "page g0 30..<60",
        "state idle 60",
      ])
    let loaded = try await engine.items(id, start: 0, end: 100)
    XCTAssertEqual(loaded, items("a", 0..<60))
    let refreshed = try await engine.refresh(id, notify: log.notify)
    XCTAssertEqual(refreshed, FeedRange(start: 0, end: 60, endReached: false))
  }

  func testOpenFeedsAreBounded() async throws {
    let engine = FeedEngine(maxOpenFeeds: 2)
    let source = FakeFeedSource(total: 10)
    let first = try await engine.open(source: source, pageSize: 5)
    _ = try await engine.open(source: source, pageSize: 5)
    do {
      _ = try await engine.open(source: source, pageSize: 5)
      XCTFail("expected the limit")
    } catch let error as InvalidArgument {
      XCTAssertEqual(error.field, "source")
      XCTAssertEqual(error.reason, "too many open feeds (2): close one first")
    }
    try await engine.close(first)
    let third = try await engine.open(source: source, pageSize: 5)
    XCTAssertNotEqual(third, first, "ids are not reused")
  }

  func testAFeedStopsGrowingAtTheItemLimitAndEndsThere() async throws {
    let engine = FeedEngine(maxItemsPerFeed: 50)
    let source = FakeFeedSource(total: 1_000)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    _ = try await engine.loadMore(id, notify: log.notify)
    let capped = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(capped, FeedRange(start: 30, end: 50, endReached: true))
    let after = try await engine.loadMore(id, notify: log.notify)
    XCTAssertEqual(after, FeedRange(start: 50, end: 50, endReached: true))
    XCTAssertEqual(source.calls, [1, 2])
    XCTAssertEqual(Array(log.all.suffix(2)), ["page g0 30..<50 end", "state ended 50"])
    let loaded = try await engine.items(id, start: 0, end: 1_000)
    XCTAssertEqual(loaded, items("a", 0..<50))
    let refreshed = try await engine.refresh(id, notify: log.notify)
    XCTAssertEqual(refreshed, FeedRange(start: 0, end: 50, endReached: true))
    XCTAssertEqual(source.calls, [1, 2, 1, 2], "the reload stops at the limit too")
  }

  func testItemsAreCutToTheCountAndBadRangesAreRefused() async throws {
    let engine = FeedEngine()
    let id = try await engine.open(source: FakeFeedSource(total: 10), pageSize: 5)
    _ = try await engine.loadMore(id, notify: { _ in })
    var loaded = try await engine.items(id, start: 3, end: 100)
    XCTAssertEqual(loaded, items("a", 3..<5))
    loaded = try await engine.items(id, start: 7, end: 9)
    XCTAssertEqual(loaded, [])
    do {
      _ = try await engine.items(id, start: 4, end: 2)
      XCTFail("expected InvalidArgument")
    } catch let error as InvalidArgument {
      XCTAssertEqual(error.field, "end")
    }
  }

  func testClosingAFeedAnswersItsRunningLoadNotFound() async throws {
    let engine = FeedEngine()
    let source = FakeFeedSource(total: 100)
    source.hold(call: 0)
    let log = FeedEventLog()
    let id = try await engine.open(source: source, pageSize: 30)
    let append = Task { try await engine.loadMore(id, notify: log.notify) }
    try await source.waitForCalls(1)
    try await engine.close(id)
    do {
      _ = try await append.value
      XCTFail("expected NotFound")
    } catch let error as NotFound {
      XCTAssertEqual(error, NotFound(resource: "feed", id: id))
    }
    XCTAssertEqual(log.all, ["state loading 0"], "nothing delivered after the close")
    do {
      try await engine.close(id)
      XCTFail("expected NotFound")
    } catch is NotFound {}
    do {
      _ = try await engine.loadMore("feed-99", notify: log.notify)
      XCTFail("expected NotFound")
    } catch is NotFound {}
  }

  func testCloseAllClosesEveryFeed() async throws {
    let engine = FeedEngine()
    _ = try await engine.open(source: FakeFeedSource(total: 1), pageSize: 1)
    _ = try await engine.open(source: FakeFeedSource(total: 1), pageSize: 1)
    await engine.closeAll()
    let open = await engine.openFeedIds
    XCTAssertEqual(open, [])
  }

  /// A change of the fake products source (it cannot place one: its feeds reload).
  private let productChange = FeedSourceEvent.changed(
    topic: "products", [FeedRecordChange(id: "1", version: nil, record: nil)])

  func testAChangeReloadsTheResetModeFeedsOfItsTopicThatShowSomething() async throws {
    let engine = FeedEngine(changeRefreshDelay: .milliseconds(1))
    let products = FakeFeedSource(name: "products", total: 100)
    let photos = FakeFeedSource(name: "photos", total: 100)
    let log = FeedEventLog()
    let loadedProducts = try await engine.open(source: products, pageSize: 30, changes: .reset)
    let untouchedProducts = try await engine.open(source: products, pageSize: 30, changes: .reset)
    let loadedPhotos = try await engine.open(source: photos, pageSize: 30, changes: .reset)
    _ = try await engine.loadMore(loadedProducts, notify: log.notify)
    _ = try await engine.loadMore(loadedProducts, notify: log.notify)
    _ = try await engine.loadMore(loadedPhotos, notify: log.notify)
    log.clear()
    products.setLabel("b")
    // The reload's first fetch waits until the loadMore below joined it, however slow the machine.
    products.hold(call: 2)
    await engine.apply(productChange, notify: log.notify)
    let joining = try await engine.beginLoadMore(loadedProducts, notify: log.notify)
    products.release(call: 2)
    let joined = try await joining.value
    XCTAssertEqual(joined, FeedRange(start: 0, end: 60, endReached: false))
    XCTAssertEqual(log.all, ["state refreshing 60", "page g1 0..<60 reset", "state idle 60"])
    let loaded = try await engine.items(loadedProducts, start: 0, end: 100)
    XCTAssertEqual(loaded, items("b", 0..<60), "as many items as were loaded, not one page")
    XCTAssertEqual(products.calls, [1, 2, 1, 2])
    XCTAssertEqual(photos.calls, [1])
    let untouched = try await engine.status(untouchedProducts)
    XCTAssertEqual(untouched.generation, 0)
  }

  func testAChangeADiffFeedCannotPlaceReloadsItAndSendsTheDifference() async throws {
    let engine = FeedEngine(changeRefreshDelay: .milliseconds(1))
    let products = FakeFeedSource(name: "products", total: 100)
    let log = FeedEventLog()
    let feed = try await engine.open(source: products, pageSize: 30)
    _ = try await engine.loadMore(feed, notify: log.notify)
    _ = try await engine.loadMore(feed, notify: log.notify)
    log.clear()
    products.setLabel("b")
    products.hold(call: 2)
    await engine.apply(productChange, notify: log.notify)
    let joining = try await engine.beginLoadMore(feed, notify: log.notify)
    products.release(call: 2)
    let joined = try await joining.value
    XCTAssertEqual(joined, FeedRange(start: 0, end: 60, endReached: false))
    XCTAssertEqual(
      log.all, ["state refreshing 60", "changed g0 60 [update 0 60]", "state idle 60"],
      "the same generation, every item updated in place")
    let loaded = try await engine.items(feed, start: 0, end: 100)
    XCTAssertEqual(loaded, items("b", 0..<60))
  }

  func testAResyncReloadsEveryActiveFeedOfItsTopic() async throws {
    let engine = FeedEngine(changeRefreshDelay: .milliseconds(1))
    let products = FakeFeedSource(name: "products", total: 100)
    let log = FeedEventLog()
    let feed = try await engine.open(source: products, pageSize: 30)
    let pristine = try await engine.open(source: products, pageSize: 30)
    _ = try await engine.loadMore(feed, notify: log.notify)
    log.clear()
    await engine.apply(.resync(topic: "products"), notify: log.notify)
    let range = try await engine.loadMore(feed, notify: log.notify)
    XCTAssertEqual(range, FeedRange(start: 0, end: 30, endReached: false))
    XCTAssertEqual(log.all, ["state refreshing 30", "state idle 30"], "nothing changed: no steps")
    XCTAssertEqual(products.calls, [1, 1], "the pristine feed fetched nothing")
    let status = try await engine.status(pristine)
    XCTAssertEqual(status.state, .idle)
  }

  /// An engine with one products feed (reloading on change) of 30 a page that loaded its first page.
  private func loadedProductsFeed(changeRefreshDelay: Duration) async throws -> (
    engine: FeedEngine, products: FakeFeedSource, log: FeedEventLog, feed: String
  ) {
    let engine = FeedEngine(changeRefreshDelay: changeRefreshDelay)
    let products = FakeFeedSource(name: "products", total: 100)
    let log = FeedEventLog()
    let feed = try await engine.open(source: products, pageSize: 30, changes: .reset)
    _ = try await engine.loadMore(feed, notify: log.notify)
    log.clear()
    return (engine, products, log, feed)
  }

  func testABurstOfChangesIsOneReload() async throws {
    // Long enough for the whole burst to arrive while the reload waits, however slow the machine.
    let (engine, products, log, feed) = try await loadedProductsFeed(
      changeRefreshDelay: .seconds(2))
    products.setLabel("b")
    for _ in 0..<20 {
      await engine.apply(productChange, notify: log.notify)
    }
    XCTAssertEqual(log.all, ["state refreshing 30"], "refreshing is reported at the first change")
    let joined = try await engine.beginLoadMore(feed, notify: log.notify).value
    XCTAssertEqual(joined, FeedRange(start: 0, end: 30, endReached: false))
    XCTAssertEqual(log.all, ["state refreshing 30", "page g1 0..<30 reset", "state idle 30"])
    XCTAssertEqual(products.calls, [1, 1], "one fetch for the whole burst")
    let loaded = try await engine.items(feed, start: 0, end: 30)
    XCTAssertEqual(loaded, items("b", 0..<30))
  }

  func testAChangeAfterTheReloadFetchedStartsAnotherWhenItEnds() async throws {
    let (engine, products, log, feed) = try await loadedProductsFeed(
      changeRefreshDelay: .milliseconds(1))
    products.hold(call: 1)
    await engine.apply(productChange, notify: log.notify)
    try await products.waitForCalls(2)
    // The reload is reading: it may have read before this change, so another one follows it.
    products.setLabel("c")
    await engine.apply(productChange, notify: log.notify)
    products.hold(call: 2)
    products.release(call: 1)
    try await products.waitForCalls(3)
    let joined = try await engine.beginLoadMore(feed, notify: log.notify)
    products.release(call: 2)
    let range = try await joined.value
    XCTAssertEqual(range, FeedRange(start: 0, end: 30, endReached: false))
    let status = try await engine.status(feed)
    XCTAssertEqual(status.generation, 2)
    let loaded = try await engine.items(feed, start: 0, end: 30)
    XCTAssertEqual(loaded, items("c", 0..<30))
  }
}
