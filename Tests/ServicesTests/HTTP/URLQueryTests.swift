import XCTest

@testable import Services

final class URLQueryTests: XCTestCase {
  func testValuesArePercentEncodedAndNilIsSkipped() {
    var query = URLQuery()
    query.append("author", "Zoë & Co=1/2+3")
    query.append("tags", nil as String?)
    query.append("page", 2)
    XCTAssertEqual(query.text, "?author=Zo%C3%AB%20%26%20Co%3D1%2F2%2B3&page=2")
  }

  func testEmptyQueryIsEmptyText() {
    XCTAssertEqual(URLQuery().text, "")
  }

  func testUnreservedCharactersStayAsTheyAre() {
    XCTAssertEqual(URLQuery.percentEncoded("aZ09-._~"), "aZ09-._~")
  }
}
