import Protocol
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// A forwarder's hand-over of its client's pipes, as the daemon receives it.
final class SessionHandoffTests: XCTestCase {
  func testTheDaemonReceivesTheClientsPipesAndTheSessionsSettings() throws {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    var pair: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&input), 0)
    XCTAssertEqual(pipe(&output), 0)
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
    defer { for fd in input + output + pair { close(fd) } }

    let sent = SessionHandoff(
      input: input[0], output: output[1], table: nil, trace: nil,
      framing: .fixed(.lsp), locale: .korean)
    XCTAssertTrue(sent.send(over: pair[0]))
    let received = try XCTUnwrap(SessionHandoff.receive(from: pair[1]))
    defer {
      close(received.input)
      close(received.output)
    }
    XCTAssertNil(received.table)
    XCTAssertNil(received.trace)
    XCTAssertEqual(received.locale, sent.locale)
    guard case .fixed(.lsp) = received.framing else { return XCTFail("\(received.framing)") }

    // The received descriptors are the client's pipes: what the client
    // writes arrives on the received input, what is written on the
    // received output reaches the client.
    XCTAssertEqual(write(input[1], "ping", 4), 4)
    var bytes = [UInt8](repeating: 0, count: 4)
    XCTAssertEqual(read(received.input, &bytes, 4), 4)
    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "ping")
    XCTAssertEqual(write(received.output, "pong", 4), 4)
    XCTAssertEqual(read(output[0], &bytes, 4), 4)
    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "pong")
  }

  func testAConnectionThatEndsBeforeAHandoffGivesNone() {
    var pair: [Int32] = [0, 0]
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
    defer { close(pair[1]) }
    XCTAssertEqual(write(pair[0], "{\"framing\":", 11), 11)
    close(pair[0])
    XCTAssertNil(SessionHandoff.receive(from: pair[1]))
  }
}
