import XCTest

@testable import Protocol

final class JSONBufferTests: XCTestCase {
  /// Appends of every size, past capacity many times over, keep every byte
  /// in order, as an array's appends do.
  func testGrowsAndKeepsWhatWasWritten() {
    var buffer = JSONBuffer(capacity: 0)
    var expected: [UInt8] = []
    var generator = SystemRandomNumberGenerator()
    for round in 0..<2_000 {
      if round % 3 == 0 {
        let byte = UInt8.random(in: 0...255, using: &generator)
        buffer.append(byte)
        expected.append(byte)
      } else {
        let piece = (0..<Int.random(in: 0...40, using: &generator)).map {
          UInt8(truncatingIfNeeded: $0 &+ round)
        }
        piece.withUnsafeBufferPointer { buffer.append(bytes: $0) }
        expected.append(contentsOf: piece)
      }
      XCTAssertEqual(buffer.count, expected.count)
    }
    XCTAssertEqual(buffer.bytes, expected)
  }

  func testRemoveAllFromTakesBackTheEnd() {
    var buffer = JSONBuffer(capacity: 4)
    JSONWriter.writeLiteral(#"{"a":1}"#, into: &buffer)
    buffer.removeAll(from: 5)
    XCTAssertEqual(buffer.bytes, Array(#"{"a":"#.utf8))
    JSONWriter.writeInteger(-20, into: &buffer)
    buffer.append(UInt8(ascii: "}"))
    XCTAssertEqual(buffer.bytes, Array(#"{"a":-20}"#.utf8))
    buffer.removeAll(from: 0)
    XCTAssertEqual(buffer.count, 0)
    XCTAssertEqual(buffer.bytes, [])
  }

  /// What `JSONWriter` writes into a buffer is what it writes into an array.
  func testWritersWriteTheSameIntoEither() {
    func write(into output: inout some JSONOutput & ~Copyable) {
      JSONWriter.writeLiteral(#"{"n":"#, into: &output)
      JSONWriter.writeInteger(Int.min, into: &output)
      JSONWriter.writeLiteral(#","s":"#, into: &output)
      JSONWriter.writeString("줄\n\"따옴표\" \u{1}", into: &output)
      JSONWriter.writeLiteral(#","t":""#, into: &output)
      RFC3339.Text(microseconds: 1_711_187_270_616_050).write(into: &output)
      output.append(UInt8(ascii: "\""))
      output.append(UInt8(ascii: "}"))
    }
    var array: [UInt8] = []
    write(into: &array)
    var buffer = JSONBuffer(capacity: 8)
    write(into: &buffer)
    XCTAssertEqual(buffer.bytes, array)
    XCTAssertEqual(
      String(decoding: array, as: UTF8.self),
      #"{"n":-9223372036854775808,"s":"줄\n\"따옴표\" \u0001","t":"2024-03-23T09:47:50.616050Z"}"#)
  }
}
