import Protocol
import Synchronization
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// The outbox over a real pipe: messages sent from many threads, each
/// written by its sender or by the writer thread, arrive whole and in each
/// sender's order; a sender never waits for a client that stopped reading.
final class OutboxTests: XCTestCase {
  var readEnd: Int32 = -1
  var writeEnd: Int32 = -1
  var outbox: Outbox!

  override func setUp() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    (readEnd, writeEnd) = (fds[0], fds[1])
    outbox = Outbox(
      fd: writeEnd, framing: .ndjson, maxQueuedBytes: 1 << 20, tracer: nil, onBrokenPipe: {})
    startThread { [outbox] in outbox?.runWriter() }
  }

  override func tearDown() {
    outbox.close()
    outbox.drain(timeout: 5)
    close(readEnd)
    close(writeEnd)
  }

  /// Reads lines until `count` arrived.
  func readLines(_ count: Int) -> [String] {
    var lines: [String] = []
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while lines.count < count {
      let got = read(readEnd, &chunk, chunk.count)
      guard got > 0 else { break }
      buffer += chunk[0..<got]
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
        buffer.removeSubrange(...newline)
      }
    }
    return lines
  }

  func testMessagesFromManyThreadsArriveWholeAndInEachSendersOrder() {
    let senders = 6
    let perSender = 3_000
    for sender in 0..<senders {
      startThread { [outbox] in
        for number in 0..<perSender {
          // Some large enough to go to the writer thread, most small.
          let padding = number % 97 == 0 ? String(repeating: "x", count: 20_000) : ""
          outbox?.send(Array(#"{"s":\#(sender),"n":\#(number),"p":"\#(padding)"}"#.utf8))
        }
      }
    }
    let lines = readLines(senders * perSender)
    XCTAssertEqual(lines.count, senders * perSender)
    var next = [Int](repeating: 0, count: senders)
    for line in lines {
      guard let message = try? JSONParser.parse(Array(line.utf8)),
        let sender = message["s"]?.intValue, let number = message["n"]?.intValue
      else {
        XCTFail("not a whole message: \(line.prefix(80))")
        return
      }
      XCTAssertEqual(number, next[sender], "sender \(sender) out of order")
      next[sender] = number + 1
    }
  }

  func testASenderDoesNotWaitForAClientThatStoppedReading() throws {
    // Fill the pipe while the writer thread is idle.
    let flags = fcntl(writeEnd, F_GETFL)
    _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
    var filled = 0
    let line = [UInt8](repeating: UInt8(ascii: "."), count: 4095) + [UInt8(ascii: "\n")]
    while true {
      let written = line.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
      if written < 0 { break }
      filled += written
    }
    let dot = [UInt8(ascii: "\n")]
    while dot.withUnsafeBytes({ write(writeEnd, $0.baseAddress, 1) }) == 1 { filled += 1 }
    _ = fcntl(writeEnd, F_SETFL, flags)

    let returned = Mutex(false)
    startThread { [outbox] in
      outbox?.send(Array(#"{"after":"full"}"#.utf8))
      returned.withLock { $0 = true }
    }
    let deadline = ContinuousClock.now + .seconds(5)
    while !returned.withLock({ $0 }) && ContinuousClock.now < deadline {
      usleep(1_000)
    }
    XCTAssertTrue(returned.withLock { $0 }, "send waited for the client")
    // Once the client reads again, the message follows what filled the pipe.
    let message = Array(#"{"after":"full"}"#.utf8) + [UInt8(ascii: "\n")]
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while received.count < filled + message.count {
      let got = read(readEnd, &chunk, chunk.count)
      guard got > 0 else { break }
      received += chunk[0..<got]
    }
    XCTAssertEqual(received.count, filled + message.count)
    XCTAssertEqual(Array(received.suffix(message.count)), message)
  }
}
