import XCTest

@testable import Protocol

final class JSONWriterIntegerTests: XCTestCase {
  /// Digits written by hand read as `String(value)` writes them, at every width and both ends.
  func testIntegersAreWrittenAsTheirDecimalText() {
    var values = [0, 1, -1, 9, 10, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
    var power = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, -power, -(power - 1)]
    }
    for value in values {
      var output = Array("x".utf8)
      JSONWriter.writeInteger(value, into: &output)
      XCTAssertEqual(String(decoding: output, as: UTF8.self), "x" + String(value))
    }
  }
}
