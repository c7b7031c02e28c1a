import XCTest

@testable import Protocol

#if canImport(Glibc)
  import Glibc
#endif

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

  func testKnownInstantsAreWrittenDigitByDigit() {
    XCTAssertEqual(RFC3339.string(microseconds: 0), "1970-01-01T00:00:00.000000Z")
    XCTAssertEqual(RFC3339.string(microseconds: -1), "1969-12-31T23:59:59.999999Z")
    XCTAssertEqual(RFC3339.string(microseconds: 951_782_400_000_000), "2000-02-29T00:00:00.000000Z")
    XCTAssertEqual(
      RFC3339.string(microseconds: 253_402_300_799_999_999), "9999-12-31T23:59:59.999999Z")
    XCTAssertEqual(
      RFC3339.string(microseconds: -62_135_596_800_000_000), "0001-01-01T00:00:00.000000Z")
    XCTAssertEqual(RFC3339.string(microseconds: 1_795_715_684_869_009).utf8.count, 27)
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

extension RFC3339Tests {
  /// The arithmetic agrees with the C library's calendar.
  func testDatesAgreeWithGmtime() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<10_000 {
      let microseconds = Int64.random(
        in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &random)
      let floored = microseconds >= 0 ? microseconds : microseconds - 999_999
      var seconds = time_t(floored / 1_000_000)
      var parts = tm()
      gmtime_r(&seconds, &parts)
      func padded(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
      }
      let expected =
        "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-"
        + "\(padded(parts.tm_mday, 2))T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):"
        + padded(parts.tm_sec, 2)
      let text = RFC3339.string(microseconds: microseconds)
      XCTAssertEqual(String(text.prefix(19)), expected, "\(microseconds)")
    }
  }
}
