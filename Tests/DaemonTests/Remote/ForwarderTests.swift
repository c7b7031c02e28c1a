import Protocol
import Synchronization
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// The forwarder between pipes (the client's stdio) and a socket pair whose
/// other end the test plays as the shared daemon.
final class ForwarderTests: XCTestCase {
  /// What `run()` returned, set by the thread that ran it.
  final class OutcomeBox: Sendable {
    let value = Mutex<Forwarder.Outcome?>(nil)
  }

  var clientInput: (read: Int32, write: Int32) = (-1, -1)
  var clientOutput: (read: Int32, write: Int32) = (-1, -1)
  var forwarderEnd: Int32 = -1
  var daemonEnd: Int32 = -1
  var forwarder: Forwarder!
  let outcome = OutcomeBox()

  override class func setUp() {
    // A write to a closed pipe must fail with EPIPE, as in catalogd, not end the tests.
    signal(SIGPIPE, SIG_IGN)
  }

  override func setUp() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    clientInput = (fds[0], fds[1])
    XCTAssertEqual(pipe(&fds), 0)
    clientOutput = (fds[0], fds[1])
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
    (forwarderEnd, daemonEnd) = (fds[0], fds[1])
  }

  override func tearDown() {
    // Ends both pumps, then closes what they used.
    closeClientInput()
    closeDaemonEnd()
    if let forwarder {
      XCTAssertTrue(waitUntil { forwarder.clientPumpFinished })
      XCTAssertTrue(waitUntil { outcome.value.withLock { $0 != nil } })
    }
    for fd in [clientInput.read, clientOutput.read, clientOutput.write, forwarderEnd] where fd >= 0
    {
      close(fd)
    }
  }

  func closeClientInput() {
    if clientInput.write >= 0 { close(clientInput.write) }
    clientInput.write = -1
  }

  func closeDaemonEnd() {
    if daemonEnd >= 0 { close(daemonEnd) }
    daemonEnd = -1
  }

  func start(framing: FramingMode = .auto) {
    let forwarder = Forwarder(
      clientInput: clientInput.read, clientOutput: clientOutput.write, socket: forwarderEnd,
      framing: framing, maxMessageBytes: 1 << 20, locale: .english, tracer: nil)
    self.forwarder = forwarder
    startThread { [outcome] in
      let result = forwarder.run()
      outcome.value.withLock { $0 = result }
    }
  }

  func waitForOutcome() -> Forwarder.Outcome? {
    XCTAssertTrue(waitUntil { outcome.value.withLock { $0 != nil } })
    return outcome.value.withLock { $0 }
  }

  /// What the client reads: everything, up to the end the forwarder's exit would make.
  func clientReads() -> String {
    close(clientOutput.write)
    clientOutput.write = -1
    return String(decoding: readToEnd(clientOutput.read), as: UTF8.self)
  }

  static func request(_ id: String, _ method: String = "daemon/echo") -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"text":"x"}}"#
  }

  static func response(_ id: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"result":{"text":"x"}}"#
  }

  static func failure(_ id: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32020,"message":"The shared catalogd "#
      + #"stopped before answering; retry, and a new one will start.","data":"#
      + #"{"retryable":true,"reason":"shared daemon exited"}}}"#
  }

  static func lsp(_ body: String) -> String {
    "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  // MARK: - The daemon dies

  func testWhenTheDaemonDiesEachWaitingRequestFailsInNDJSON() {
    start()
    let sent = [
      Self.request("1"), Self.request(#""two""#),
      #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#, Self.request("3"),
    ].map { $0 + "\n" }.joined()
    writeText(clientInput.write, sent)
    let received = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 4 }
    XCTAssertEqual(String(decoding: received, as: UTF8.self), sent, "bytes pass unchanged")
    // One whole response, and the start of another: the daemon dies writing it.
    writeText(daemonEnd, Self.response("1") + "\n" + Self.response(#""two""#).prefix(20))
    closeDaemonEnd()

    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 2))
    XCTAssertEqual(
      clientReads(),
      Self.response("1") + "\n" + Self.failure(#""two""#) + "\n" + Self.failure("3") + "\n")
  }

  func testWhenTheDaemonDiesEachWaitingRequestFailsInLSPFraming() {
    start()
    let sent = [Self.request("1"), Self.request("2"), Self.request("3")].map(Self.lsp).joined()
    writeText(clientInput.write, sent)
    let received = readUntil(daemonEnd) {
      occurrences(of: "Content-Length", in: $0) == 3 && $0.last == UInt8(ascii: "}")
    }
    XCTAssertEqual(String(decoding: received, as: UTF8.self), sent)
    writeText(daemonEnd, Self.lsp(Self.response("2")) + Self.lsp(Self.response("3")).prefix(30))
    closeDaemonEnd()

    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 2))
    XCTAssertEqual(
      clientReads(),
      Self.lsp(Self.response("2")) + Self.lsp(Self.failure("1")) + Self.lsp(Self.failure("3")))
  }

  func testAMessageCutShortAcrossManyReadsNeverReachesTheClient() {
    start()
    writeText(clientInput.write, Self.request("1") + "\n")
    _ = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 1 }
    // Larger than a read of the forwarder's, so it arrives in several.
    let large =
      #"{"jsonrpc":"2.0","id":1,"result":{"text":""# + String(repeating: "y", count: 600_000)
    writeText(daemonEnd, large)
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 1))
    XCTAssertEqual(clientReads(), Self.failure("1") + "\n")
  }

  func testALargeResponseInManyReadsArrivesWhole() {
    start()
    writeText(clientInput.write, Self.request("1") + "\n" + Self.request("2") + "\n")
    _ = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 2 }
    let large =
      #"{"jsonrpc":"2.0","id":1,"result":{"text":""# + String(repeating: "y", count: 600_000)
      + #""}}"#
    let daemonWriter = daemonEnd
    startThread { writeText(daemonWriter, large + "\n") }
    let first = readUntil(clientOutput.read) { $0.count >= large.utf8.count + 1 }
    XCTAssertEqual(String(decoding: first, as: UTF8.self), large + "\n")
    XCTAssertEqual(forwarder.pendingIDs, [.number(JSONNumber(2))])
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 1))
    XCTAssertEqual(clientReads(), Self.failure("2") + "\n")
  }

  func testABatchFailsTheRequestsItsResponseLacks() {
    start()
    let batch = "[" + Self.request("1") + "," + Self.request("2") + "]\n"
    writeText(clientInput.write, batch)
    _ = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 1 }
    writeText(daemonEnd, "[" + Self.response("2") + "]\n")
    XCTAssertTrue(waitUntil { forwarder.pendingIDs == [.number(JSONNumber(1))] })
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 1))
    XCTAssertEqual(clientReads(), "[" + Self.response("2") + "]\n" + Self.failure("1") + "\n")
  }

  func testADaemonThatClosesAnIdleSessionIsStillLost() {
    start()
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 0))
    XCTAssertEqual(clientReads(), "")
  }

  // MARK: - Normal ends

  func testTheEndOfInputIsPassedOnAndTheRepliesStillArrive() {
    start()
    writeText(clientInput.write, Self.request("1") + "\n" + Self.request("2"))
    closeClientInput()
    // The daemon sees the end of the session (shutdown(SHUT_WR)) with both
    // requests, the last without its newline, as `printf '…' | catalogd` sends it.
    let received = String(decoding: readToEnd(daemonEnd), as: UTF8.self)
    XCTAssertEqual(received, Self.request("1") + "\n" + Self.request("2"))
    XCTAssertEqual(forwarder.pendingIDs.count, 2)
    writeText(daemonEnd, Self.response("1") + "\n" + Self.response("2") + "\n")
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .finished(status: 0))
    XCTAssertEqual(clientReads(), Self.response("1") + "\n" + Self.response("2") + "\n")
  }

  func testExitAfterShutdownEndsWithZero() {
    start()
    writeText(clientInput.write, Self.request("9", "shutdown") + "\n")
    _ = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 1 }
    writeText(daemonEnd, #"{"jsonrpc":"2.0","id":9,"result":null}"# + "\n")
    writeText(clientInput.write, #"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
    // After `exit` the forwarder ends its side, as a client that exits would.
    XCTAssertEqual(
      String(decoding: readToEnd(daemonEnd), as: UTF8.self),
      #"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .finished(status: 0))
    XCTAssertTrue(waitUntil { forwarder.clientPumpFinished }, "exit ends the reading of stdin")
    XCTAssertEqual(clientReads(), #"{"jsonrpc":"2.0","id":9,"result":null}"# + "\n")
  }

  func testExitWithoutShutdownEndsWithOneAndNoFailures() {
    start()
    writeText(
      clientInput.write, Self.request("1") + "\n" + #"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
    _ = readToEnd(daemonEnd)
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .finished(status: 1))
    XCTAssertEqual(clientReads(), "")
  }

  func testAClientThatClosedItsStdoutEndsTheForwarder() {
    start()
    close(clientOutput.read)
    clientOutput.read = -1
    writeText(clientInput.write, Self.request("1") + "\n")
    _ = readUntil(daemonEnd) { occurrences(of: "\n", in: $0) == 1 }
    writeText(daemonEnd, Self.response("1") + "\n")
    XCTAssertEqual(waitForOutcome(), .clientGone)
  }

  func testAFixedFramingFramesTheFailureReplies() {
    start(framing: .fixed(.lsp))
    writeText(clientInput.write, Self.lsp(Self.request("1")))
    _ = readUntil(daemonEnd) { $0.last == UInt8(ascii: "}") }
    closeDaemonEnd()
    XCTAssertEqual(waitForOutcome(), .daemonLost(reason: "end of stream", failed: 1))
    XCTAssertEqual(clientReads(), Self.lsp(Self.failure("1")))
  }
}
