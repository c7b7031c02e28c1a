import XCTest

@testable import Protocol

/// `DecimalDouble` gives the double `Double(String)` gives, for every text
/// it takes on.
final class DecimalDoubleTests: XCTestCase {
  func assertSameAsStandardLibrary(
    _ text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let fast = DecimalDouble.parse(text) else { return }
    let expected = Double(text)
    XCTAssertEqual(fast.bitPattern, expected?.bitPattern, "\(text)", file: file, line: line)
  }

  func testKnownValues() {
    let cases: [(String, Double)] = [
      ("0", 0), ("-0", -0.0), ("0.0", 0), ("1", 1), ("-12", -12), ("0.1", 0.1),
      ("127.07179476144243", 127.07179476144243), ("37.54084329398569", 37.54084329398569),
      ("1e3", 1000), ("1.5E+3", 1500), ("25e-1", 2.5), ("9007199254740993", 9_007_199_254_740_992),
      ("9999999999999999999", 1e19), ("1e-19", 1e-19), ("1e19", 1e19),
      ("123456789012345678e-19", 0.0123456789012345678),
    ]
    for (text, value) in cases {
      XCTAssertEqual(DecimalDouble.parse(text)?.bitPattern, value.bitPattern, text)
      XCTAssertEqual(DecimalDouble.parse(text)?.sign, value.sign, text)
    }
  }

  func testLeavesTheRestToTheStandardLibrary() {
    for text in ["12345678901234567890", "1e400", "1e-400", "1e23", "123456789012345678e-20"] {
      XCTAssertNil(DecimalDouble.parse(text), text)
      XCTAssertNotNil(JSONNumber(validatedText: text).doubleValue, text)
    }
    XCTAssertEqual(JSONNumber(validatedText: "1e400").doubleValue, .infinity)
  }

  /// Random digits with the point anywhere and exponents of every size it
  /// takes: the same bits as `Double(String)` each time.
  func testRandomTextsAgreeWithTheStandardLibrary() {
    var generator = SystemRandomNumberGenerator()
    var taken = 0
    for _ in 0..<100_000 {
      let count = Int.random(in: 1...19, using: &generator)
      var digits = (0..<count).map { _ in
        Character(String(Int.random(in: 0...9, using: &generator)))
      }
      if Bool.random(using: &generator) { digits[0] = "0" }
      var text = Bool.random(using: &generator) ? "-" : ""
      let point = Int.random(in: 0...count, using: &generator)
      if point == 0 || point == count {
        text += String(digits)
      } else {
        text += String(digits[..<point]) + "." + String(digits[point...])
      }
      if text.hasPrefix("0"), text.count > 1, !text.hasPrefix("0.") { text.removeFirst() }
      if Int.random(in: 0..<3, using: &generator) == 0 {
        text += "e\(Int.random(in: -30...30, using: &generator))"
      }
      if DecimalDouble.parse(text) != nil { taken += 1 }
      assertSameAsStandardLibrary(text)
    }
    XCTAssertGreaterThan(taken, 60_000)
  }

  /// Texts halfway between two neighbouring doubles, and just either side,
  /// where a rounding without the sticky bit goes wrong.
  func testHalfwayCasesRoundAsTheStandardLibraryDoes() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<30_000 {
      // An integer between 2^53 and 10^19 whose nearest doubles are 2^k apart.
      let value = UInt64.random(in: (1 << 53)...9_999_999_999_999_999_999, using: &generator)
      let spacing = UInt64(1) << (64 - 53 - value.leadingZeroBitCount)
      let low = value & ~(spacing - 1)
      let halfway = low + spacing / 2
      for candidate in [halfway - 1, halfway, halfway + 1] {
        assertSameAsStandardLibrary(String(candidate))
        // The same digits divided by powers of ten: quotients, not integers.
        for power in [1, 5, 10, 19] { assertSameAsStandardLibrary("\(candidate)e-\(power)") }
      }
    }
  }
}
