import Protocol
import XCTest

/// Golden-JSON tests: parse a literal text, write it, compare, parse back.
final class JSONCodingTests: XCTestCase {
  func roundTrip(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let value = try JSONParser.parse(text)
    XCTAssertEqual(value.description, text, file: file, line: line)
    XCTAssertEqual(try JSONParser.parse(value.description), value, file: file, line: line)
  }

  func testNumbersKeepTheirExactText() throws {
    try roundTrip("[9007199254740993,-0,1.50,1e400,-12.5E-3,123456789012345678901234567890]")
    XCTAssertEqual(try JSONParser.parse("9007199254740993").intValue, 9_007_199_254_740_993)
    XCTAssertNotEqual(try JSONParser.parse("1"), try JSONParser.parse("\"1\""))
    XCTAssertEqual(try JSONParser.parse("3.0").numberValue?.integralValue, 3)
    XCTAssertNil(try JSONParser.parse("3.5").numberValue?.integralValue)
  }

  func testObjectsKeepOrderAndDuplicateKeys() throws {
    try roundTrip(#"{"b":1,"a":2,"b":3}"#)
    XCTAssertEqual(try JSONParser.parse(#"{"b":1,"a":2,"b":3}"#)["b"], 3)
  }

  func testStringsEscapeWhatMustBeEscaped() throws {
    let value = JSON.string("q\"b\\n\n\t\u{1}é😀/")
    XCTAssertEqual(value.description, #""q\"b\\n\n\t\u0001é😀/""#)
    XCTAssertEqual(try JSONParser.parse(value.description), value)
    XCTAssertEqual(try JSONParser.parse(#""\u00e9\ud83d\ude00\/""#), "é😀/")
  }

  func testRejectsLoneSurrogatesAndInvalidUTF8() {
    XCTAssertThrowsError(try JSONParser.parse(#""\ud800""#))
    XCTAssertThrowsError(try JSONParser.parse(#""\udc00x""#))
    XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0x22]))
    XCTAssertThrowsError(try JSONParser.parse([0x22, 0xC0, 0xAF, 0x22]))
  }

  func testDepthIsLimitedWithoutRecursingFurther() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
      XCTAssertEqual((error as? JSONParseError)?.kind, .tooDeep(limit: 128))
    }
    let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    XCTAssertNoThrow(try JSONParser.parse(ok))
    XCTAssertThrowsError(try JSONParser.parse("[" + ok + "]"))
    XCTAssertNoThrow(try JSONParser.parse("[" + ok + "]", maxDepth: 129))
  }

  func testErrorsSayWhereAndWhy() {
    XCTAssertThrowsError(try JSONParser.parse(#"{"a":tru}"#)) { error in
      XCTAssertEqual("\(error)", "unexpected character '}' at byte 8")
    }
    XCTAssertThrowsError(try JSONParser.parse("[1,]")) { error in
      XCTAssertEqual("\(error)", "unexpected character ']' at byte 3")
    }
    XCTAssertThrowsError(try JSONParser.parse("{} x")) { error in
      XCTAssertEqual("\(error)", "data after the JSON text at byte 3")
    }
  }
}
