import XCTest

@testable import Services

final class EmbeddedQuoteBackendTests: XCTestCase {
  private let backend = EmbeddedQuoteBackend()

  func testRandomQuotesMatchTheFilter() async throws {
    let filter = QuoteFilter(tags: ["famous-quotes"], minLength: 40, maxLength: 80)
    for _ in 0..<30 {
      let quote = try await backend.random(filter, excluding: nil)
      XCTAssertTrue(quote.tags.contains("famous-quotes"))
      XCTAssertTrue((40...80).contains(quote.length), "\(quote.length)")
    }
  }

  func testAuthorFilterTakesNameOrSlug() async throws {
    let bySlug = try await backend.random(QuoteFilter(author: "albert-einstein"), excluding: nil)
    let byName = try await backend.random(QuoteFilter(author: "ALBERT EINSTEIN"), excluding: nil)
    XCTAssertEqual(bySlug.author, "Albert Einstein")
    XCTAssertEqual(byName.author, "Albert Einstein")
  }

  func testNoMatchingQuoteThrowsNoMatch() async {
    do {
      _ = try await backend.random(QuoteFilter(tags: ["no-such-tag"]), excluding: nil)
      XCTFail("expected noMatch")
    } catch {
      XCTAssertEqual(error as? QuotesError, .noMatch)
    }
  }

  func testRandomNeverReturnsTheExcludedQuoteWhenAnotherMatches() async throws {
    let quotes = (1...3).map { Quote(id: "q\($0)", content: "c\($0)", author: "A", tags: []) }
    let backend = EmbeddedQuoteBackend(quotes: quotes)
    var seen: Set<String> = []
    for _ in 0..<60 {
      let quote = try await backend.random(QuoteFilter(), excluding: "q2")
      XCTAssertNotEqual(quote.id, "q2")
      seen.insert(quote.id)
    }
    XCTAssertEqual(seen, ["q1", "q3"], "both other quotes come up")
  }

  func testTheOnlyMatchIsReturnedEvenWhenExcluded() async throws {
    let backend = EmbeddedQuoteBackend(quotes: [
      Quote(id: "only", content: "c", author: "A", tags: [])
    ])
    let quote = try await backend.random(QuoteFilter(), excluding: "only")
    XCTAssertEqual(quote.id, "only")
  }

  func testPagesCoverTheCorpusInOrder() async throws {
    let corpus = try QuoteCorpus.quotes()
    var ids: [String] = []
    var page: Int? = 1
    var pages = 0
    while let current = page {
      let result = try await backend.list(page: current, limit: 120, author: nil, tags: [])
      XCTAssertEqual(result.page, current)
      ids += result.items.map(\.id)
      page = result.nextPage
      pages += 1
    }
    XCTAssertEqual(ids, corpus.map(\.id))
    XCTAssertEqual(pages, (corpus.count + 119) / 120)
  }

  func testFilteredPagesEndWithNilNextPage() async throws {
    let corpus = try QuoteCorpus.quotes()
    let friendship = corpus.filter { $0.tags.contains("friendship") }
    XCTAssertGreaterThan(friendship.count, 20)
    let first = try await backend.list(page: 1, limit: 20, author: nil, tags: ["friendship"])
    XCTAssertEqual(first.items, Array(friendship.prefix(20)))
    XCTAssertEqual(first.nextPage, 2)
    let lastPage = (friendship.count + 19) / 20
    let last = try await backend.list(page: lastPage, limit: 20, author: nil, tags: ["friendship"])
    XCTAssertEqual(last.items, Array(friendship.dropFirst((lastPage - 1) * 20)))
    XCTAssertNil(last.nextPage)
    let beyond = try await backend.list(
      page: lastPage + 1, limit: 20, author: nil, tags: ["friendship"])
    XCTAssertEqual(beyond.items, [])
    XCTAssertNil(beyond.nextPage)
  }

  func testListByAuthorSlug() async throws {
    let result = try await backend.list(page: 1, limit: 100, author: "confucius", tags: [])
    XCTAssertFalse(result.items.isEmpty)
    XCTAssertTrue(result.items.allSatisfy { $0.author == "Confucius" })
  }

  func testPageBelowOneIsRefused() async {
    do {
      _ = try await backend.list(page: 0, limit: 10, author: nil, tags: [])
      XCTFail("expected InvalidArgument")
    } catch {
      XCTAssertEqual((error as? InvalidArgument)?.field, "page")
    }
  }
}
