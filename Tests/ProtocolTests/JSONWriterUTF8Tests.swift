import XCTest

@testable import Protocol

/// `JSONWriter.writeString(utf8:)` writes what `writeString` writes for the
/// `String` that `String(decoding:as:)` makes of the same bytes, valid or not.
final class JSONWriterUTF8Tests: XCTestCase {
  func assertSameAsString(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    var direct: [UInt8] = []
    bytes.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &direct) }
    var viaString: [UInt8] = []
    JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), into: &viaString)
    XCTAssertEqual(direct, viaString, "bytes \(bytes)", file: file, line: line)
    // The same into a buffer that already holds text (what a repair takes
    // back must be only this string's), and one that must grow on the way.
    var buffer = JSONBuffer(capacity: 1)
    JSONWriter.writeLiteral("[1,", into: &buffer)
    bytes.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &buffer) }
    XCTAssertEqual(
      buffer.bytes, Array("[1,".utf8) + viaString, "bytes \(bytes)", file: file, line: line)
  }

  func testValidTextIsWrittenAsItIsWithEscapes() {
    for text in [
      "", "a", "서울 강남구 \"역삼동\" 123-4", "back\\slash", "\u{0}\u{1}\n\t\r\u{8}\u{c}\u{1f}", "😀 𝄞 é",
      "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
    ] {
      assertSameAsString(Array(text.utf8))
    }
  }

  func testInvalidSequencesAreRepairedAsStringDoes() {
    let cases: [[UInt8]] = [
      [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80],
      [0xE0, 0x9F, 0xBF], [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
      [0xEF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0x41, 0xE2, 0x82, 0x41, 0x22],
      [0xEC, 0x84, 0x9C, 0xEC, 0x9A],
    ]
    for bytes in cases {
      XCTAssertFalse(bytes.withUnsafeBufferPointer(UTF8Validation.isValid), "\(bytes)")
      assertSameAsString(bytes)
    }
  }

  func testValidationAgreesWithTheStandardLibraryOnRandomBytes() {
    var generator = SystemRandomNumberGenerator()
    // Bytes biased towards lead and continuation bytes, where the edge cases are.
    let alphabet: [UInt8] = [
      0x00, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0,
      0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ]
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...6, using: &generator)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      XCTAssertEqual(bytes.withUnsafeBufferPointer(UTF8Validation.isValid), valid, "\(bytes)")
      assertSameAsString(bytes)
    }
  }

  /// Longer text, so that runs of eight ASCII bytes that need no escape are
  /// skipped at once: each special byte at each offset around them.
  func testEscapesAndNonASCIIAtEveryOffsetOfLongerText() {
    let specials: [[UInt8]] = [
      [0x22], [0x5C], [0x00], [0x1F], [0x0A], [0x7F], [0x20], Array("é".utf8), Array("서".utf8),
      Array("😀".utf8), [0xFF], [0xC2], [0xED, 0xA0, 0x80],
    ]
    for length in [7, 8, 9, 15, 16, 17, 31, 40] {
      for offset in 0..<length {
        for special in specials {
          var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
          bytes.replaceSubrange(offset..<(offset + 1), with: special)
          assertSameAsString(bytes)
        }
      }
    }
  }

  func testLongerRandomTextAgreesWithTheStandardLibrary() {
    var generator = SystemRandomNumberGenerator()
    // Mostly plain ASCII, with some of every kind of byte.
    let alphabet: [UInt8] =
      Array("abcdefghij 0123456789-./:>".utf8) + [
        0x00, 0x09, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xBF, 0xC2, 0xE0, 0xEA, 0xB0, 0xED, 0xF0, 0xFF,
      ]
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...48, using: &generator)
      let bytes = (0..<count).map { _ in
        Int.random(in: 0..<4, using: &generator) == 0
          ? (alphabet.randomElement(using: &generator) ?? 0) : UInt8(ascii: "m")
      }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      XCTAssertEqual(bytes.withUnsafeBufferPointer(UTF8Validation.isValid), valid, "\(bytes)")
      assertSameAsString(bytes)
    }
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...30, using: &generator) {
        text +=
          ["서울 ", "강남구", " 123-4", "\"", "\\", "\n", "http://place.map.kakao.com/", "é"]
          .randomElement(using: &generator) ?? ""
      }
      assertSameAsString(Array(text.utf8))
    }
  }

  func testNeedsEscapeFindsEachControlQuoteAndBackslash() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [UInt8] = [
      0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
    ]
    for _ in 0..<100_000 {
      let bytes = (0..<8).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
      let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      let expected = bytes.contains {
        $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
      }
      XCTAssertEqual(JSONWriter.needsEscape(word), expected, "\(bytes)")
    }
  }
}
