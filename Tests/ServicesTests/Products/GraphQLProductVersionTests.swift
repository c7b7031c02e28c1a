import XCTest

@testable import Services

final class GraphQLProductVersionTests: XCTestCase {
  func testRFC3339TimesBecomeEpochMilliseconds() {
    let cases: [String: Int] = [
      "2024-01-01T09:00:00.000Z": 1_704_099_600_000,
      "2024-02-10T12:30:00.250Z": 1_707_568_200_250,
      "2024-02-10T12:30:00.25Z": 1_707_568_200_250,
      "2024-02-10T12:30:00.250999Z": 1_707_568_200_250,
      "2024-02-10t12:30:00z": 1_707_568_200_000,
      "2024-02-10 12:30:00Z": 1_707_568_200_000,
      "2024-02-29T23:59:59.999+09:00": 1_709_218_799_999,
      "2024-02-29T05:59:59.999-09:00": 1_709_218_799_999,
      "2000-03-01T00:00:00Z": 951_868_800_000,
      "2000-02-29T00:00:00Z": 951_782_400_000,
      "1970-01-01T00:00:00Z": 0,
      "1969-12-31T23:59:59Z": -1000,
    ]
    for (text, milliseconds) in cases {
      XCTAssertEqual(GraphQLProductVersion.epochMilliseconds(rfc3339: text), milliseconds, text)
    }
  }

  func testOtherTextsAreNotRFC3339() {
    let texts = [
      "", "2024-01-01", "2024-01-01T09:00:00", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
      "1900-02-29T00:00:00Z",
      "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T09:00:00.Z",
      "2024-01-01T09:00:00+0900", "2024-01-01T09:00:00Z ", "1704099600000", "yesterday",
    ]
    for text in texts {
      XCTAssertNil(GraphQLProductVersion.epochMilliseconds(rfc3339: text), text)
    }
  }

  func testTheVersionOfAProduct() {
    XCTAssertEqual(GraphQLProductVersion.of(updatedAt: nil), 1)
    XCTAssertEqual(
      GraphQLProductVersion.of(updatedAt: "2024-01-01T09:00:00.000Z"), 1_704_099_600_000)
    XCTAssertEqual(GraphQLProductVersion.of(updatedAt: "1960-01-01T00:00:00Z"), 1)
    let odd = GraphQLProductVersion.of(updatedAt: "last tuesday")
    XCTAssertEqual(odd, GraphQLProductVersion.of(updatedAt: "last tuesday"), "stable")
    XCTAssertNotEqual(odd, GraphQLProductVersion.of(updatedAt: "last wednesday"))
    XCTAssertGreaterThanOrEqual(odd, 2)
    XCTAssertLessThan(odd, 1 << 53, "exact in a JavaScript number")
    XCTAssertEqual(odd, 802_738_760_137_846, "the same in every process (FNV-1a)")
  }
}
