import XCTest

@testable import Services

final class QuoteFilterTests: XCTestCase {
  private let quote = Quote(
    id: "q", content: String(repeating: "x", count: 50), author: "Albert Einstein",
    tags: ["Famous-Quotes", "science"])

  func testEmptyFilterMatchesEverything() {
    XCTAssertTrue(QuoteFilter().matches(quote))
  }

  func testAQuoteMustHaveEveryTag() {
    XCTAssertTrue(QuoteFilter(tags: ["science"]).matches(quote))
    XCTAssertTrue(QuoteFilter(tags: ["famous-quotes", "SCIENCE"]).matches(quote))
    XCTAssertFalse(QuoteFilter(tags: ["science", "wisdom"]).matches(quote))
  }

  func testAuthorMatchesNameOrSlugCaseInsensitively() {
    XCTAssertTrue(QuoteFilter(author: "albert einstein").matches(quote))
    XCTAssertTrue(QuoteFilter(author: "Albert-Einstein").matches(quote))
    XCTAssertFalse(QuoteFilter(author: "Albert").matches(quote))
  }

  func testLengthBoundsAreInclusive() {
    XCTAssertTrue(QuoteFilter(minLength: 50, maxLength: 50).matches(quote))
    XCTAssertFalse(QuoteFilter(minLength: 51).matches(quote))
    XCTAssertFalse(QuoteFilter(maxLength: 49).matches(quote))
  }

  func testValidateRefusesCrossedOrNegativeBounds() {
    XCTAssertThrowsError(try QuoteFilter(minLength: 10, maxLength: 5).validate()) {
      XCTAssertEqual(
        $0 as? InvalidArgument,
        InvalidArgument(field: "maxLength", reason: "must not be less than minLength"))
    }
    XCTAssertThrowsError(try QuoteFilter(minLength: -1).validate()) {
      XCTAssertEqual(($0 as? InvalidArgument)?.field, "minLength")
    }
    XCTAssertNoThrow(try QuoteFilter(minLength: 5, maxLength: 5).validate())
  }
}
