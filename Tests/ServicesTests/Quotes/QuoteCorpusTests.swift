import FoundationEssentials
import Protocol
import XCTest

@testable import Services

final class QuoteCorpusTests: XCTestCase {
  func testCorpusHasEnoughWellFormedQuotes() throws {
    let quotes = try QuoteCorpus.quotes()
    XCTAssertGreaterThanOrEqual(quotes.count, 300)
    XCTAssertEqual(Set(quotes.map(\.id)).count, quotes.count, "ids are unique")
    for quote in quotes {
      XCTAssertFalse(quote.content.isEmpty, quote.id)
      XCTAssertFalse(quote.author.isEmpty, quote.id)
      XCTAssertFalse(quote.authorSlug.isEmpty, quote.id)
      XCTAssertFalse(quote.tags.isEmpty, quote.id)
      // The corpus counts like Python's len(): Unicode scalars.
      XCTAssertEqual(quote.length, quote.content.unicodeScalars.count, quote.id)
    }
  }

  /// EmbeddedQuotes.swift is generated: it must hold exactly what quotes.json
  /// holds (run scripts/embed-quotes after changing the corpus).
  func testEmbeddedQuotesAreInStepWithQuotesJSON() throws {
    let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let source = root.appending(path: "Sources/Services/Quotes/Corpus/quotes.json")
    let fromFile = try QuotableFormat.quotes(JSONParser.parse(Array(Data(contentsOf: source))))
    let embedded = try QuoteCorpus.quotes()
    XCTAssertEqual(embedded.count, fromFile.count)
    XCTAssertEqual(embedded, fromFile)
  }

  func testParseReportsABrokenCorpus() {
    XCTAssertThrowsError(try QuoteCorpus.parse(#"[{"_id":"a"}]"#)) {
      XCTAssertTrue("\($0)".contains("content"), "\($0)")
    }
    XCTAssertThrowsError(try QuoteCorpus.parse("[")) {
      XCTAssertTrue("\($0)".contains("not JSON"), "\($0)")
    }
  }
}
