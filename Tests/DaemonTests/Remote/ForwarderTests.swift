import Protocol
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// A forwarder once it handed its session over: it waits on the control
/// line (a socket pair whose other end the test plays as the shared daemon)
/// and, when the daemon dies, answers from the session's table.
final class ForwarderTests: XCTestCase {
  var clientOutput: (read: Int32, write: Int32) = (-1, -1)
  var forwarderEnd: Int32 = -1
  var daemonEnd: Int32 = -1
  /// The daemon's side of the session's table.
  var table: WaitingRequestTable!
  var tableFD: Int32 = -1

  override class func setUp() {
    // A write to a closed pipe must fail with EPIPE, as in catalogd, not end the tests.
    signal(SIGPIPE, SIG_IGN)
  }

  override func setUp() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    clientOutput = (fds[0], fds[1])
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
    (forwarderEnd, daemonEnd) = (fds[0], fds[1])
    guard let fd = SharedMemoryFile.create(name: "test") else { return XCTFail("no memfd") }
    tableFD = dup(fd)
    table = WaitingRequestTable(fd: fd)
  }

  override func tearDown() {
    table = nil
    for fd in [clientOutput.read, clientOutput.write, forwarderEnd, daemonEnd, tableFD]
    where fd >= 0 {
      close(fd)
    }
  }

  func forwarder(framing: FramingMode = .auto, table: Int32? = nil) -> Forwarder {
    Forwarder(
      control: forwarderEnd, clientOutput: clientOutput.write, table: table ?? tableFD,
      framing: framing, locale: .english)
  }

  /// The daemon dies: its end closes without a status.
  func daemonDies() {
    table = nil
    close(daemonEnd)
    daemonEnd = -1
  }

  /// What the client reads: everything, up to the end the forwarder's exit would make.
  func clientReads() -> String {
    close(clientOutput.write)
    clientOutput.write = -1
    return String(decoding: readToEnd(clientOutput.read), as: UTF8.self)
  }

  static func failure(_ id: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32020,"message":"The shared catalogd "#
      + #"stopped before answering; retry, and a new one will start.","data":"#
      + #"{"retryable":true,"reason":"shared daemon exited"}}}"#
  }

  static func lsp(_ body: String) -> String {
    "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  // MARK: - The session ends

  func testTheStatusTheDaemonSendsIsTheOutcome() {
    var status: UInt8 = 1
    XCTAssertEqual(write(daemonEnd, &status, 1), 1)
    XCTAssertEqual(forwarder().run(), .finished(status: 1))
    XCTAssertEqual(clientReads(), "")
  }

  // MARK: - The daemon dies

  func testEachWaitingRequestFailsInTheFramingTheDaemonSaw() {
    table.setFraming(.ndjson)
    let one = table.expect(.number(JSONNumber(1)))
    table.expect(.string("two"))
    table.expect(.number(JSONNumber(3)))
    table.replyQueued(one, endingAt: 40)
    table.written(upTo: 40, frameEnd: 40)
    daemonDies()
    XCTAssertEqual(
      forwarder().run(), .daemonLost(reason: "end of stream", failed: 2, unrecorded: 0))
    XCTAssertEqual(clientReads(), Self.failure(#""two""#) + "\n" + Self.failure("3") + "\n")
  }

  func testAFrameCutShortIsFinishedBeforeTheFailuresInLSPFraming() {
    table.setFraming(.lsp)
    table.replyQueued(table.expect(.number(JSONNumber(1))), endingAt: 100)
    table.written(upTo: 93, frameEnd: 100)
    daemonDies()
    XCTAssertEqual(
      forwarder().run(), .daemonLost(reason: "end of stream", failed: 1, unrecorded: 0))
    XCTAssertEqual(clientReads(), String(repeating: " ", count: 7) + Self.lsp(Self.failure("1")))
  }

  func testALineCutShortIsEndedBeforeTheFailuresInNDJSON() {
    table.setFraming(.ndjson)
    table.replyQueued(table.expect(.number(JSONNumber(1))), endingAt: 100)
    table.written(upTo: 93, frameEnd: 100)
    daemonDies()
    _ = forwarder().run()
    XCTAssertEqual(clientReads(), "\n" + Self.failure("1") + "\n")
  }

  func testTheForwardersFixedFramingAndTheSessionsLanguageAreUsed() {
    table.setLocale(.korean)
    table.expect(.number(JSONNumber(1)))
    daemonDies()
    _ = forwarder(framing: .fixed(.lsp)).run()
    let text = clientReads()
    XCTAssertTrue(text.hasPrefix("Content-Length: "), text)
    XCTAssertFalse(text.contains("The shared catalogd"), text)
  }

  func testAnIdleSessionsDaemonIsStillLost() {
    daemonDies()
    XCTAssertEqual(
      forwarder().run(), .daemonLost(reason: "end of stream", failed: 0, unrecorded: 0))
    XCTAssertEqual(clientReads(), "")
  }
}
