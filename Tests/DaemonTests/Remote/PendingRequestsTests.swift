import Protocol
import XCTest

@testable import Daemon

/// What the forwarder learns from the bodies it carries, and the replies it
/// writes for requests the shared daemon never answered.
final class PendingRequestsTests: XCTestCase {
  var pending = PendingRequests()

  func client(_ text: String) { pending.clientSent(body: Array(text.utf8)) }
  func daemon(_ text: String) { pending.daemonSent(body: Array(text.utf8)) }

  func testRequestsWaitUntilTheirResponseArrives() {
    client(#"{"jsonrpc":"2.0","id":1,"method":"daemon/echo","params":{"text":"hi"}}"#)
    client(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    client(#"{"jsonrpc":"2.0","id":"b","method":"quotes/random"}"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(1)), .string("b")])
    daemon(#"{"jsonrpc":"2.0","id":1,"result":{"text":"hi"}}"#)
    XCTAssertEqual(pending.ids, [.string("b")])
    daemon(#"{"jsonrpc":"2.0","id":"b","error":{"code":-32800,"message":"cancelled"}}"#)
    XCTAssertTrue(pending.isEmpty)
  }

  func testNotificationsWaitForNothing() {
    client(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    client(#"{"method":"$/cancelRequest","params":{"id":7},"jsonrpc":"2.0"}"#)
    XCTAssertTrue(pending.isEmpty)
  }

  func testStringAndNumberIdsStayApart() {
    client(#"{"jsonrpc":"2.0","id":"7","method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":7,"method":"b"}"#)
    daemon(#"{"jsonrpc":"2.0","id":7,"result":null}"#)
    XCTAssertEqual(pending.ids, [.string("7")])
  }

  func testIdsMatchHoweverTheyAreWritten() {
    // The daemon writes ids its own way: escapes decoded, numbers as sent.
    client(#"{"jsonrpc":"2.0","id":"a\u0062\/c","method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":"한국","method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":1.50,"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":-3,"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":null,"method":"a"}"#)
    XCTAssertEqual(pending.count, 6)
    daemon(#"{"jsonrpc":"2.0","id":"ab/c","result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":"\ud55c\uad6d","result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":1.50,"result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":9007199254740993,"result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":-3,"result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#)
    XCTAssertEqual(pending.ids, [])
  }

  func testIdsNoResponseCanCarryAreNotAwaited() {
    client(#"{"jsonrpc":"2.0","id":{"a":1},"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":[1],"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":true,"method":"a"}"#)
    XCTAssertTrue(pending.isEmpty)
  }

  func testBatchesInBothDirections() {
    client(
      #"[{"jsonrpc":"2.0","id":1,"method":"a"}, {"jsonrpc":"2.0","method":"n"},"#
        + #" 5, {"jsonrpc":"2.0","id":"x","method":"b","params":[1,{"id":99}]}, []]"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(1)), .string("x")])
    daemon(
      #"[{"jsonrpc":"2.0","id":"x","result":[{"id":1}]},"#
        + #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}]"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(1))])
  }

  func testMembersInsideParamsAndResultsAreNotTakenForIds() {
    client(#"{"jsonrpc":"2.0","method":"n","params":{"id":3,"method":"m"}}"#)
    XCTAssertTrue(pending.isEmpty)
    client(#"{"params":{"id":4},"method":"m","id":5,"jsonrpc":"2.0"}"#)
    daemon(#"{"jsonrpc":"2.0","method":"feeds/changed","params":{"id":5,"result":1}}"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(5))])
    daemon(#"{"result":{"id":4,"s":"}\"{"},"id":5,"jsonrpc":"2.0"}"#)
    XCTAssertTrue(pending.isEmpty)
  }

  func testAReusedIdWaitsAsOftenAsItWasSent() {
    client(#"{"jsonrpc":"2.0","id":1,"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":1,"method":"b"}"#)
    XCTAssertEqual(pending.count, 2)
    daemon(#"{"jsonrpc":"2.0","id":1,"result":1}"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(1))])
    daemon(#"{"jsonrpc":"2.0","id":1,"result":1}"#)
    daemon(#"{"jsonrpc":"2.0","id":1,"result":1}"#)
    XCTAssertTrue(pending.isEmpty)
    XCTAssertEqual(pending.count, 0)
  }

  func testResponsesTheClientSendsAndRequestsTheDaemonSendsChangeNothing() {
    client(#"{"jsonrpc":"2.0","id":1,"method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":2,"result":{}}"#)
    daemon(#"{"jsonrpc":"2.0","id":1,"method":"window/showMessageRequest"}"#)
    XCTAssertEqual(pending.ids, [.number(JSONNumber(1))])
  }

  func testShutdownExitAndTheLocaleAreNoticed() {
    XCTAssertFalse(pending.shutdownRequested)
    client(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"locale":"ko-KR"}}"#)
    XCTAssertEqual(pending.locale, .korean)
    client(#"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#)
    XCTAssertTrue(pending.shutdownRequested)
    XCTAssertFalse(pending.exitNotified)
    client(#"{"jsonrpc":"2.0","method":"exit"}"#)
    XCTAssertTrue(pending.exitNotified)
  }

  func testMalformedBodiesYieldWhatCanBeRead() {
    for text in ["", "  ", "nul", "{", #"{"id":1"#, #"{"id":1,"method":"#, "[{", #"{"a":"\"#, "]"] {
      client(text)
    }
    XCTAssertTrue(pending.isEmpty)
  }

  func testALargeResultIsNotReadPastItsId() {
    client(#"{"jsonrpc":"2.0","id":1,"method":"products/list"}"#)
    // The result is cut short: a reader that went on would find it malformed
    // and could not tell the message apart from a broken one.
    daemon(#"{"jsonrpc":"2.0","id":1,"result":{"items":[{"name":"#)
    XCTAssertTrue(pending.isEmpty)
  }

  // MARK: - Failure replies

  static let failure =
    #"{"code":-32020,"message":"The shared catalogd stopped before answering; retry, and a new one "#
    + #"will start.","data":{"retryable":true,"reason":"shared daemon exited"}}"#

  func testFailureRepliesInNDJSON() {
    client(#"{"jsonrpc":"2.0","id":"two","method":"a"}"#)
    client(#"{"jsonrpc":"2.0","id":3,"method":"b"}"#)
    client(#"{"jsonrpc":"2.0","id":1,"method":"c"}"#)
    daemon(#"{"jsonrpc":"2.0","id":3,"result":1}"#)
    XCTAssertEqual(
      String(decoding: pending.failureReplies(framing: .ndjson), as: UTF8.self),
      #"{"jsonrpc":"2.0","id":"two","error":\#(Self.failure)}"# + "\n"
        + #"{"jsonrpc":"2.0","id":1,"error":\#(Self.failure)}"# + "\n")
  }

  func testFailureRepliesInLSPFraming() {
    client(#"{"jsonrpc":"2.0","id":7,"method":"a"}"#)
    let body = #"{"jsonrpc":"2.0","id":7,"error":\#(Self.failure)}"#
    XCTAssertEqual(
      String(decoding: pending.failureReplies(framing: .lsp), as: UTF8.self),
      "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
  }

  func testNothingWaitingWritesNothing() {
    XCTAssertEqual(pending.failureReplies(framing: .lsp), [])
  }
}
