import Protocol
import XCTest

@testable import Daemon

/// The replies a forwarder writes for the requests the shared daemon never answered.
final class PendingRequestsTests: XCTestCase {
  static let failure =
    #"{"code":-32020,"message":"The shared catalogd stopped before answering; retry, and a new one "#
    + #"will start.","data":{"retryable":true,"reason":"shared daemon exited"}}"#

  func testFailureRepliesInNDJSONTheOldestFirst() {
    let pending = PendingRequests(ids: [.string("two"), .number(JSONNumber(1))])
    XCTAssertEqual(
      String(decoding: pending.failureReplies(framing: .ndjson), as: UTF8.self),
      #"{"jsonrpc":"2.0","id":"two","error":\#(Self.failure)}"# + "\n"
        + #"{"jsonrpc":"2.0","id":1,"error":\#(Self.failure)}"# + "\n")
  }

  func testFailureRepliesInLSPFraming() {
    let pending = PendingRequests(ids: [.number(JSONNumber(7))])
    let body = #"{"jsonrpc":"2.0","id":7,"error":\#(Self.failure)}"#
    XCTAssertEqual(
      String(decoding: pending.failureReplies(framing: .lsp), as: UTF8.self),
      "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
  }

  func testFailureRepliesInTheSessionsLanguage() {
    let pending = PendingRequests(ids: [.number(JSONNumber(7))], locale: .korean)
    let text = String(decoding: pending.failureReplies(framing: .ndjson), as: UTF8.self)
    XCTAssertTrue(text.contains(#""code":-32020"#), text)
    XCTAssertFalse(text.contains("The shared catalogd stopped"), text)
  }

  func testNothingWaitingWritesNothing() {
    XCTAssertEqual(PendingRequests(ids: []).failureReplies(framing: .lsp), [])
  }
}
