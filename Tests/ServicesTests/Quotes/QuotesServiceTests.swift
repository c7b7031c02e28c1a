import XCTest

@testable import Services

final class QuotesServiceTests: XCTestCase {
  private func quote(_ id: String) -> Quote {
    Quote(id: id, content: "content \(id)", author: "A", tags: [])
  }

  func testAFetchReportsTrueThenFalseBeforeItReturns() async throws {
    let service = QuotesService(backend: EmbeddedQuoteBackend())
    let recorder = LoadingRecorder()
    _ = try await service.random(QuoteFilter()) { recorder.record($0) }
    XCTAssertEqual(recorder.recorded, [true, false])
    _ = try await service.random(QuoteFilter()) { recorder.record($0) }
    XCTAssertEqual(recorder.recorded, [true, false, true, false])
    let isLoading = await service.isLoading
    XCTAssertFalse(isLoading)
  }

  /// Loading is the refresh button's: a list page (or a feed's) does not disable it.
  func testAListPageIsNotLoading() async throws {
    let backend = GatedQuoteBackend()
    let service = QuotesService(backend: backend)
    let page = Task { try await service.list(page: 1, limit: 1) }
    try await backend.waitForCalls(1)
    let isLoading = await service.isLoading
    XCTAssertFalse(isLoading)
    backend.finishOldest(with: .success(quote("q")))
    _ = try await page.value
  }

  func testAFailedFetchStillReportsFalseBeforeItThrows() async {
    let service = QuotesService(backend: EmbeddedQuoteBackend(quotes: []))
    let recorder = LoadingRecorder()
    do {
      _ = try await service.random(QuoteFilter()) { recorder.record($0) }
      XCTFail("expected noMatch")
    } catch {
      XCTAssertEqual(error as? QuotesError, .noMatch)
      XCTAssertEqual(recorder.recorded, [true, false])
    }
  }

  func testAnInvalidFilterFailsWithoutReportingLoading() async {
    let service = QuotesService(backend: EmbeddedQuoteBackend())
    let recorder = LoadingRecorder()
    do {
      _ = try await service.random(QuoteFilter(minLength: 9, maxLength: 3)) { recorder.record($0) }
      XCTFail("expected InvalidArgument")
    } catch {
      XCTAssertEqual((error as? InvalidArgument)?.field, "maxLength")
      XCTAssertEqual(recorder.recorded, [])
    }
  }

  func testOverlappingFetchesReportOneTrueAndOneFalse() async throws {
    let backend = GatedQuoteBackend()
    let service = QuotesService(backend: backend)
    let first = LoadingRecorder()
    let second = LoadingRecorder()
    let firstFetch = Task { try await service.random(QuoteFilter()) { first.record($0) } }
    try await backend.waitForCalls(1)
    let secondFetch = Task { try await service.random(QuoteFilter()) { second.record($0) } }
    try await backend.waitForCalls(2)
    XCTAssertEqual(first.recorded, [true], "the fetch that started loading reports it")
    XCTAssertEqual(second.recorded, [])

    backend.finishOldest(
      with: .failure(UpstreamFailure.unavailable(service: "quotes", reason: "x")))
    do {
      _ = try await firstFetch.value
      XCTFail("expected the first fetch to fail")
    } catch {
      XCTAssertEqual(error as? UpstreamFailure, .unavailable(service: "quotes", reason: "x"))
    }
    XCTAssertEqual(first.recorded, [true], "another fetch still runs")
    let loadingBetween = await service.isLoading
    XCTAssertTrue(loadingBetween)

    backend.finishOldest(with: .success(quote("q")))
    let quote = try await secondFetch.value
    XCTAssertEqual(quote.id, "q")
    XCTAssertEqual(second.recorded, [false], "the fetch that ended loading reports it")
    XCTAssertEqual(first.recorded + second.recorded, [true, false])
  }

  func testRandomExcludesTheQuoteItReturnedLast() async throws {
    let backend = GatedQuoteBackend()
    let service = QuotesService(backend: backend)
    for id in ["a", "b"] {
      let fetch = Task { try await service.random(QuoteFilter()) { _ in } }
      try await backend.waitForCalls(1)
      backend.finishOldest(with: .success(quote(id)))
      _ = try await fetch.value
    }
    XCTAssertEqual(backend.excludedIDs, [nil, "a"])
  }

  func testTheSameQuoteNeverComesTwiceInARow() async throws {
    let quotes = ["a", "b"].map(quote)
    let service = QuotesService(backend: EmbeddedQuoteBackend(quotes: quotes))
    var previous: String?
    for _ in 0..<40 {
      let id = try await service.random(QuoteFilter()) { _ in }.id
      XCTAssertNotEqual(id, previous)
      previous = id
    }
  }

  func testCancellingAFetchReportsFalseAndThrowsCancellation() async throws {
    let server = try LocalHTTPServer(["/random": [.json("{}", delay: .seconds(5))]])
    defer { server.stop() }
    let service = QuotesService(backend: RemoteQuoteBackend(baseURL: server.baseURL))
    let recorder = LoadingRecorder()
    let fetch = Task { try await service.random(QuoteFilter()) { recorder.record($0) } }
    while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    fetch.cancel()
    let clock = ContinuousClock()
    let start = clock.now
    do {
      _ = try await fetch.value
      XCTFail("expected cancellation")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertLessThan(clock.now - start, .seconds(1), "the transfer is aborted at once")
    XCTAssertEqual(recorder.recorded, [true, false])
  }
}
