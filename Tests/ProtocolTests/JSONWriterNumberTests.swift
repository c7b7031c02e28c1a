import XCTest

@testable import Protocol

/// `JSONWriter.writeNumber` writes the text of `JSONNumber(value)`, which it
/// stands in for where a row's doubles are written straight to JSON.
final class JSONWriterNumberTests: XCTestCase {
  func assertSameAsJSONNumber(_ value: Double, file: StaticString = #filePath, line: UInt = #line) {
    var output = Array("x".utf8)
    JSONWriter.writeNumber(value, into: &output)
    XCTAssertEqual(
      String(decoding: output, as: UTF8.self), "x" + JSONNumber(value).text, "\(value)", file: file,
      line: line)
  }

  func testEdgeValues() {
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, -0.5, 0.1, 1e-7, -1e-7, 1e-300, -1e-300, 1e300, -1e300,
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, .pi, -.pi,
      .nan, -.nan, .infinity, -.infinity, 126.9264918, 37.581736, -180, 180, 90, -90,
      9.007_199_254_740_993e15, 123_456_789.25,
    ]
    // Either side of 10¹⁵, where integral values stop being written as integers.
    for power in 0...20 {
      let value = pow(10, Double(power))
      values += [value, -value, value.nextUp, value.nextDown, -value.nextUp, value + 0.5]
    }
    for value in values {
      assertSameAsJSONNumber(value)
    }
  }

  func testRandomValues() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      // Any finite bit pattern: tiny, huge, negative, subnormal.
      let any = Double(bitPattern: generator.next())
      assertSameAsJSONNumber(any.isFinite ? any : 0)
      // Coordinates as stored: 7 decimals, and full precision.
      let longitude = Double.random(in: -180...180, using: &generator)
      assertSameAsJSONNumber(longitude)
      assertSameAsJSONNumber((longitude * 1e7).rounded() / 1e7)
      // Integral values, small and large.
      assertSameAsJSONNumber(Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator)))
      assertSameAsJSONNumber(Double(Int.random(in: -1000...1000, using: &generator)))
    }
  }
}
