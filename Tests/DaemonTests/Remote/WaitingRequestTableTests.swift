import Protocol
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// The table of waiting requests a shared daemon keeps for each forwarded
/// session, and what the forwarder reads of it once the daemon is gone.
final class WaitingRequestTableTests: XCTestCase {
  /// The daemon's side, and a descriptor of the same file for the forwarder's.
  var table: WaitingRequestTable!
  var forwarderFD: Int32 = -1

  override func setUp() {
    guard let fd = SharedMemoryFile.create(name: "test") else {
      XCTFail("no memfd")
      return
    }
    forwarderFD = dup(fd)
    table = WaitingRequestTable(fd: fd)
    XCTAssertNotNil(table)
  }

  override func tearDown() {
    table = nil
    close(forwarderFD)
  }

  var snapshot: WaitingRequestTable.Snapshot? { WaitingRequestTable.Snapshot.read(forwarderFD) }

  /// Descriptors `forwardedOutbox` opened, for `closeAll`.
  var opened: [Int32] = []

  /// An outbox of a forwarded session on a pipe (the client's stdout) with
  /// this table, its writer thread running, and the session's end on a
  /// socket pair (the control line).
  func forwardedOutbox(maxQueuedBytes: Int) -> (Outbox, pipe: [Int32], SessionEnd) {
    var pipeFDs: [Int32] = [0, 0]
    var pair: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&pipeFDs), 0)
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
    opened += pipeFDs + pair
    let end = SessionEnd(control: pair[0])
    let outbox = Outbox(
      fd: pipeFDs[1], framing: .ndjson, maxQueuedBytes: maxQueuedBytes, tracer: nil,
      table: table, end: end, onBrokenPipe: {})
    startThread { outbox.runWriter() }
    return (outbox, pipeFDs, end)
  }

  func closeAll() {
    for fd in opened { close(fd) }
    opened = []
  }

  static let one = RequestID.number(JSONNumber(1))
  static let two = RequestID.string("two")
  static let three = RequestID.number(JSONNumber(3))

  func testARequestWaitsUntilItsReplyIsWrittenNotJustQueued() {
    table.expect(Self.one)
    let two = table.expect(Self.two)
    table.expect(Self.three)
    table.replyQueued(two, endingAt: 40)
    XCTAssertEqual(snapshot?.waiting, [Self.one, Self.two, Self.three])
    table.written(upTo: 40, frameEnd: 40)
    XCTAssertEqual(snapshot?.waiting, [Self.one, Self.three])
    XCTAssertEqual(snapshot?.committed, 40)
    XCTAssertEqual(snapshot?.frameEnd, 40)
  }

  func testAReplyCutShortStillWaitsAndTheFrameEndIsKnown() {
    table.replyQueued(table.expect(Self.one), endingAt: 9000)
    table.written(upTo: 4096, frameEnd: 9000)
    let snapshot = snapshot
    XCTAssertEqual(snapshot?.waiting, [Self.one])
    XCTAssertEqual(snapshot?.committed, 4096)
    XCTAssertEqual(snapshot?.frameEnd, 9000)
  }

  func testAReusedIdWaitsAsOftenAsItWasSentTheOldestFirst() {
    let first = table.expect(Self.one)
    table.expect(Self.two)
    table.expect(Self.one)
    table.replyQueued(first, endingAt: 30)
    table.written(upTo: 30, frameEnd: 30)
    XCTAssertEqual(snapshot?.waiting, [Self.two, Self.one])
  }

  func testIdsComeBackAsTheyWereSent() {
    let ids: [RequestID] = [
      .string(#"a"b\c"#), .string("한글 id"), .number(JSONNumber(-9_007_199_254_740_993)), .null,
    ]
    for id in ids { table.expect(id) }
    XCTAssertEqual(snapshot?.waiting, ids)
  }

  func testAnIdTooLongForASlotIsCountedAsUnrecorded() {
    XCTAssertEqual(
      table.expect(.string(String(repeating: "x", count: WaitingRequestTable.maxIDBytes))),
      .untracked)
    table.expect(Self.one)
    XCTAssertEqual(snapshot?.waiting, [Self.one])
    XCTAssertEqual(snapshot?.unrecorded, 1)
  }

  func testTheFramingAndTheLanguageAreRecorded() {
    XCTAssertNil(snapshot?.framing)
    XCTAssertNil(snapshot?.locale)
    table.setFraming(.lsp)
    table.setLocale(.korean)
    XCTAssertEqual(snapshot?.framing, .lsp)
    XCTAssertEqual(snapshot?.locale, .korean)
  }

  func testTheTableGrowsAndReusesTheSlotsOfWrittenReplies() {
    let count = 5 * WaitingRequestTable.initialBytes / WaitingRequestTable.slotBytes
    let tickets = (0..<count).map { table.expect(.number(JSONNumber($0))) }
    XCTAssertEqual(snapshot?.waiting.count, count)
    for (number, ticket) in tickets.enumerated() {
      table.replyQueued(ticket, endingAt: UInt64(number + 1) * 10)
    }
    table.written(upTo: UInt64(count - 1) * 10, frameEnd: UInt64(count - 1) * 10)
    XCTAssertEqual(snapshot?.waiting, [.number(JSONNumber(count - 1))])
    var size = stat()
    XCTAssertEqual(fstat(forwarderFD, &size), 0)
    let grown = size.st_size
    // Freed slots are used again: the file does not grow for new requests.
    for number in 0..<(count - 1) { table.expect(.number(JSONNumber(count + number))) }
    XCTAssertEqual(fstat(forwarderFD, &size), 0)
    XCTAssertEqual(size.st_size, grown)
    XCTAssertEqual(snapshot?.waiting.count, count)
  }

  func testAFileTheDaemonNeverSetUpHoldsNoTable() {
    guard let fd = SharedMemoryFile.create(name: "empty") else { return XCTFail("no memfd") }
    defer { close(fd) }
    XCTAssertNil(WaitingRequestTable.Snapshot.read(fd))
  }

  /// An outbox with a table frees each entry once its reply was written, in
  /// pieces a pipe takes whole, and a large reply in pieces of a page.
  func testAnOutboxTellsTheTableWhatItWrote() {
    let (outbox, pipeFDs, _) = forwardedOutbox(maxQueuedBytes: 1 << 20)
    defer { closeAll() }
    let large = Array(
      (#"{"jsonrpc":"2.0","id":2,"result":""# + String(repeating: "y", count: 10_000) + #""}"#)
        .utf8)
    let one = outbox.expectReply(to: Self.one)
    let two = outbox.expectReply(to: .number(JSONNumber(2)))
    _ = outbox.expectReply(to: Self.three)
    outbox.send(Array(#"{"jsonrpc":"2.0","id":1,"result":1}"#.utf8), replyingTo: one, wake: true)
    outbox.send(large, replyingTo: two, wake: true)
    let expected = 36 + large.count + 1
    let read = readUntil(pipeFDs[0]) { $0.count >= expected }
    XCTAssertEqual(read.count, expected)
    XCTAssertTrue(outbox.drain(timeout: 10))
    XCTAssertEqual(snapshot?.waiting, [Self.three])
    XCTAssertEqual(snapshot?.committed, UInt64(expected))
    XCTAssertEqual(snapshot?.frameEnd, UInt64(expected))
    outbox.close()
    outbox.detach()
  }

  /// A write that waits for room in a full pipe stops when the session ends,
  /// and the table says where the stream stopped: inside the frame.
  func testAWriteWaitingForRoomStopsAtTheSessionsEnd() {
    let (outbox, pipeFDs, end) = forwardedOutbox(maxQueuedBytes: 4 << 20)
    defer { closeAll() }
    let one = outbox.expectReply(to: Self.one)
    // Far more than the pipe holds; nobody reads it.
    let body = Array(
      (#"{"jsonrpc":"2.0","id":1,"result":""# + String(repeating: "z", count: 1 << 20) + #""}"#)
        .utf8)
    outbox.send(body, replyingTo: one, wake: true)
    XCTAssertTrue(waitUntil { (self.snapshot?.committed ?? 0) > 0 && !isWritable(pipeFDs[1]) })
    end.request(status: 0)
    outbox.detach()  // returns: the write waiting for room gave up
    let snapshot = snapshot
    XCTAssertEqual(snapshot?.waiting, [Self.one])
    XCTAssertEqual(snapshot?.frameEnd, UInt64(body.count + 1))
    XCTAssertLessThan(snapshot?.committed ?? .max, UInt64(body.count + 1))
    XCTAssertEqual((snapshot?.committed ?? 1) % UInt64(Outbox.atomicWriteBytes), 0)
  }
}
