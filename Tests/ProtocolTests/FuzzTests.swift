import Protocol
import XCTest

/// Seeded random and mutated inputs through the decoder and the parser: no
/// crash, memory bounded by the limits, and the stream always recovers.
final class FuzzTests: XCTestCase {
  /// A small deterministic generator (SplitMix64), so a failure replays.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  let valid = Array(
    #"{"jsonrpc":"2.0","id":1,"method":"daemon/echo","params":{"a":[1,"é",null,true]}}"#.utf8)

  func mutate(_ bytes: [UInt8], using random: inout SplitMix) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let index = Int.random(in: 0..<max(bytes.count, 1), using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0 where !bytes.isEmpty: bytes[index] = UInt8.random(in: 0...255, using: &random)
      case 1 where !bytes.isEmpty: bytes.remove(at: index)
      case 2:
        bytes.insert(
          Array("{}[]\",:\\\u{0}\n\r".utf8).randomElement(using: &random) ?? 0, at: index)
      default: bytes = Array(bytes.prefix(index))
      }
    }
    return bytes
  }

  func testMutatedMessagesNeverCrashTheParser() {
    var random = SplitMix(state: 42)
    for _ in 0..<20_000 {
      let bytes = mutate(valid, using: &random)
      if let value = try? JSONParser.parse(bytes) {
        XCTAssertEqual(try JSONParser.parse(value.serialized()), value)
      }
    }
  }

  /// Garbage between valid messages costs at most the garbage: every valid
  /// LSP message after a garbage run is still delivered.
  func testLSPStreamRecoversAfterGarbage() {
    var random = SplitMix(state: 7)
    var decoder = FrameDecoder(mode: .fixed(.lsp), maxMessageBytes: 4096)
    var delivered = 0
    var sentValid = 0
    for round in 0..<2_000 {
      var chunk: [UInt8] = []
      if round % 3 == 0 {
        chunk += (0..<Int.random(in: 0...64, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        chunk += Array("\r\n\r\n".utf8)
      }
      chunk += Array("Content-Length: \(valid.count)\r\n\r\n".utf8) + valid
      sentValid += 1
      var offset = 0
      while offset < chunk.count {
        let size = Int.random(in: 1...512, using: &random)
        decoder.append(Array(chunk[offset..<min(offset + size, chunk.count)]))
        offset += size
        while let event = decoder.next() {
          if case .message(let range) = event, Array(decoder.buffer[range]) == valid {
            delivered += 1
          }
        }
        XCTAssertLessThan(decoder.pendingByteCount, 8192 + 4096 + 512)
      }
    }
    // Garbage that happens to spell a header may swallow a neighbour; nearly all arrive.
    XCTAssertGreaterThan(Double(delivered) / Double(sentValid), 0.95)
  }

  func testNDJSONStreamOfRandomLinesStaysInStep() {
    var random = SplitMix(state: 99)
    var decoder = FrameDecoder(mode: .fixed(.ndjson), maxMessageBytes: 256)
    var delivered = 0
    for _ in 0..<5_000 {
      var line = mutate(valid, using: &random).filter { $0 != UInt8(ascii: "\n") }
      if Bool.random(using: &random) { line = valid }
      decoder.append(line + [UInt8(ascii: "\n")])
      while let event = decoder.next() {
        if case .message(let range) = event {
          delivered += 1
          _ = try? JSONParser.parse(Array(decoder.buffer[range]))
        }
      }
      XCTAssertLessThan(decoder.pendingByteCount, 512)
    }
    XCTAssertGreaterThan(delivered, 4_000)
  }
}
