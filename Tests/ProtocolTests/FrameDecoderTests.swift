import Protocol
import XCTest

final class FrameDecoderTests: XCTestCase {
  typealias Event = FrameDecoder.Event

  /// Feeds `chunks` and returns what came out: bodies as strings, errors as "!reason".
  func decode(_ chunks: [[UInt8]], mode: FramingMode = .auto, max: Int = 1 << 20) -> [String] {
    var decoder = FrameDecoder(mode: mode, maxMessageBytes: max)
    var out: [String] = []
    for chunk in chunks {
      decoder.append(chunk)
      while let event = decoder.next() {
        switch event {
        case .message(let range): out.append(String(decoding: decoder.buffer[range], as: UTF8.self))
        case .error(let reason): out.append("!" + reason)
        }
      }
    }
    return out
  }

  func lsp(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

  let bodies = [#"{"a":1}"#, #"[1,2,3]"#, #"{"s":"é✓😀"}"#, "{}"]

  func testSplitsLSPMessagesAtEveryByteBoundary() {
    let stream = Array(bodies.map(lsp).joined().utf8)
    for split in 0...stream.count {
      let out = decode([Array(stream[..<split]), Array(stream[split...])])
      XCTAssertEqual(out, bodies, "split at \(split)")
    }
    XCTAssertEqual(decode(stream.map { [$0] }), bodies, "one byte per read")
  }

  func testSplitsNDJSONAtEveryByteBoundary() {
    let stream = Array((bodies.joined(separator: "\n") + "\r\n").utf8)
    for split in 0...stream.count {
      XCTAssertEqual(decode([Array(stream[..<split]), Array(stream[split...])]), bodies)
    }
    XCTAssertEqual(decode(stream.map { [$0] }), bodies)
  }

  func testSeveralMessagesInOneRead() {
    XCTAssertEqual(decode([Array(bodies.map(lsp).joined().utf8)]), bodies)
    XCTAssertEqual(decode([Array((bodies.joined(separator: "\n") + "\n").utf8)]), bodies)
  }

  func testDetectsFramingFromFirstNonBlankByte() {
    var decoder = FrameDecoder(mode: .auto, maxMessageBytes: 100)
    decoder.append(Array("\r\n  content-length: 2\r\n\r\n{}".utf8))
    XCTAssertEqual(decoder.next(), .message(25..<27))
    XCTAssertEqual(decoder.framing, .lsp)
    var other = FrameDecoder(mode: .auto, maxMessageBytes: 100)
    other.append(Array("\n\n 42\n".utf8))
    XCTAssertEqual(other.next(), .message(3..<5))
    XCTAssertEqual(other.framing, .ndjson)
  }

  func testHeaderNamesAreCaseInsensitiveAndOtherHeadersAllowed() {
    let text =
      "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:2\r\nX-Other: y\r\n\r\n{}"
    XCTAssertEqual(decode([Array(text.utf8)]), ["{}"])
  }

  func testAcceptsBareNewlineHeaders() {
    XCTAssertEqual(decode([Array("Content-Length: 2\n\n{}".utf8)]), ["{}"])
  }

  func testMissingContentLengthResynchronisesAtTheNextHeader() {
    let text = "Content-Type: x\r\n\r\n{\"lost\":1}" + lsp("[1]")
    XCTAssertEqual(decode([Array(text.utf8)]), ["!missing Content-Length header", "[1]"])
  }

  func testInvalidContentLengthValues() {
    for value in ["abc", "-5", "", "1 2", "0x10"] {
      let text = "Content-Length: \(value)\r\n\r\n{}" + lsp("[2]")
      XCTAssertEqual(decode([Array(text.utf8)]), ["!invalid Content-Length value", "[2]"], value)
    }
  }

  func testMalformedHeaderLineResynchronises() {
    let text = "garbage without colon\r\n" + lsp("[3]")
    XCTAssertEqual(
      decode([Array(text.utf8)], mode: .fixed(.lsp)), ["!malformed header line", "[3]"])
  }

  func testShortContentLengthCostsOneMessage() {
    let text = "Content-Length: 5\r\n\r\n{\"a\":12345}" + lsp("[4]")
    let out = decode([Array(text.utf8)])
    XCTAssertEqual(out.first, "{\"a\":")
    XCTAssertEqual(out.last, "[4]")
  }

  func testOversizedLSPBodyIsSkippedAsItStreams() {
    var decoder = FrameDecoder(mode: .auto, maxMessageBytes: 10)
    decoder.append(Array("Content-Length: 1000\r\n\r\n".utf8))
    XCTAssertEqual(
      decoder.next(), .error(reason: "message of 1000 bytes exceeds the limit of 10 bytes"))
    for _ in 0..<10 {
      decoder.append([UInt8](repeating: UInt8(ascii: "x"), count: 100))
      XCTAssertNil(decoder.next())
      XCTAssertLessThanOrEqual(decoder.pendingByteCount, 100)
    }
    decoder.append(Array(lsp("[5]").utf8))
    guard case .message(let range) = decoder.next() else { return XCTFail("no message") }
    XCTAssertEqual(String(decoding: decoder.buffer[range], as: UTF8.self), "[5]")
  }

  func testAbsurdContentLengthDoesNotSwallowTheStream() {
    let text = "Content-Length: 99999999999999999999999\r\n\r\n{}" + lsp("[6]")
    let out = decode([Array(text.utf8)], max: 100)
    XCTAssertEqual(out.count, 2)
    XCTAssertTrue(out[0].hasPrefix("!message exceeds"))
    XCTAssertEqual(out[1], "[6]")
  }

  func testOverlongNDJSONLineIsDiscardedUpToItsNewline() {
    let long = String(repeating: "x", count: 50)
    let out = decode([Array(long.utf8), Array(long.utf8), Array("\n[7]\n".utf8)], max: 20)
    XCTAssertEqual(out, ["!message exceeds the limit of 20 bytes", "[7]"])
  }

  func testHeaderLineWithoutColonOrEndIsMalformed() {
    var decoder = FrameDecoder(mode: .fixed(.lsp), maxMessageBytes: 100)
    decoder.append([UInt8](repeating: UInt8(ascii: "a"), count: 10_000))
    XCTAssertEqual(decoder.next(), .error(reason: "malformed header line"))
    XCTAssertNil(decoder.next())
    XCTAssertLessThan(decoder.pendingByteCount, 20)
  }

  /// A huge unknown header is dropped as it streams; the message it belongs to is served.
  func testOverlongUnknownHeaderIsSkippedWithBoundedMemory() {
    var decoder = FrameDecoder(mode: .fixed(.lsp), maxMessageBytes: 100)
    var out: [Event] = []
    decoder.append(Array("X-Junk: ".utf8))
    for _ in 0..<100 {
      decoder.append([UInt8](repeating: UInt8(ascii: "j"), count: 10_000))
      while let event = decoder.next() { out.append(event) }
      XCTAssertLessThanOrEqual(decoder.pendingByteCount, 20_000)
    }
    decoder.append(Array(("\r\n" + lsp("[1]")).utf8))
    while let event = decoder.next() { out.append(event) }
    XCTAssertEqual(out.count, 1)
    guard case .message(let range) = out.first else { return XCTFail("\(out)") }
    XCTAssertEqual(String(decoding: decoder.buffer[range], as: UTF8.self), "[1]")
  }

  func testBlankLinesBetweenMessagesAreIgnored() {
    let text = "\r\n\r\n" + lsp("[8]") + "\r\n\r\n" + lsp("[9]")
    XCTAssertEqual(decode([Array(text.utf8)]), ["[8]", "[9]"])
    XCTAssertEqual(decode([Array("\n\n[8]\n  \n\n[9]\n".utf8)]), ["[8]", "[9]"])
  }

  func testFramesRepliesWithExactlyOneHeader() {
    var out: [UInt8] = []
    Framing.lsp.frame(Array("{}".utf8), into: &out)
    XCTAssertEqual(String(decoding: out, as: UTF8.self), "Content-Length: 2\r\n\r\n{}")
    out = []
    Framing.ndjson.frame(Array("{}".utf8), into: &out)
    XCTAssertEqual(String(decoding: out, as: UTF8.self), "{}\n")
  }

  func testLastNDJSONLineWithoutNewlineIsDeliveredAtEndOfInput() {
    var decoder = FrameDecoder(mode: .auto, maxMessageBytes: 100)
    decoder.append(Array("[1]\n[2]".utf8))
    XCTAssertEqual(decoder.next(), .message(0..<3))
    XCTAssertNil(decoder.next())
    XCTAssertEqual(decoder.finish(), .message(4..<7))
    XCTAssertNil(decoder.finish())
    var lsp = FrameDecoder(mode: .auto, maxMessageBytes: 100)
    lsp.append(Array("Content-Length: 9\r\n\r\n{}".utf8))
    XCTAssertNil(lsp.next())
    XCTAssertEqual(lsp.finish(), .error(reason: "end of input inside a message"))
  }
}
