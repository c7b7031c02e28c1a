import XCTest

@testable import Protocol

final class RFC3339Tests: XCTestCase {
  func testMicrosecondsReadBackWhatStringWrote() {
    var random = SystemRandomNumberGenerator()
    let edges: [Int64] = [
      0, -1, 1, 951_782_400_000_000, 4_102_444_799_999_999, -62_135_596_800_000_000,
    ]
    for value in edges
      + (0..<10_000).map({ _ in
        Int64.random(in: -62_000_000_000_000_000...253_402_300_799_999_999, using: &random)
      })
    {
      XCTAssertEqual(RFC3339.microseconds(RFC3339.string(microseconds: value)), value)
    }
  }

  func testOtherShapesAreNotRead() {
    for text in [
      "", "2026-11-22T02:55:00Z", "2026-11-22T02:55:00.123456+00:00", "2026-13-22T02:55:00.123456Z",
      "2026-11-22 02:55:00.123456Z", "2026-11-22T02:55:0x.123456Z",
    ] {
      XCTAssertNil(RFC3339.microseconds(text), text)
    }
  }
}
