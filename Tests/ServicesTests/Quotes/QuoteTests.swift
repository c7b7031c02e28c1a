import Protocol
import XCTest

@testable import Services

final class QuoteTests: XCTestCase {
  func testWireShapeIsIdContentAuthorTagsLength() {
    let quote = Quote(
      id: "q1", content: "Less is more.", author: "Ludwig Mies", tags: ["design", "art"])
    XCTAssertEqual(
      quote.json.description,
      #"{"id":"q1","content":"Less is more.","author":"Ludwig Mies","tags":["design","art"],"length":13}"#
    )
  }

  func testLengthCountsUnicodeScalarsLikeTheCorpus() {
    XCTAssertEqual(Quote(id: "q", content: "don’t", author: "A", tags: []).length, 5)
    XCTAssertEqual(Quote(id: "q", content: "e\u{301}", author: "A", tags: []).length, 2)
  }

  func testSlugMatchesQuotableSpelling() {
    XCTAssertEqual(Quote.slug("Albert Einstein"), "albert-einstein")
    XCTAssertEqual(Quote.slug("Martin Luther King Jr."), "martin-luther-king-jr")
    XCTAssertEqual(Quote.slug("  Laozi "), "laozi")
  }

  func testPageWireShapeHasNullNextPageAtTheEnd() {
    let quote = Quote(id: "q", content: "c", author: "a", tags: [])
    XCTAssertEqual(
      QuotePage(items: [quote], page: 3, nextPage: nil).json.description,
      #"{"items":[{"id":"q","content":"c","author":"a","tags":[],"length":1}],"page":3,"nextPage":null}"#
    )
    XCTAssertEqual(QuotePage(items: [], page: 1, nextPage: 2).json["nextPage"], 2)
  }
}
