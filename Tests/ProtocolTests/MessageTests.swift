import Protocol
import XCTest

final class MessageTests: XCTestCase {
  func classify(_ text: String) throws -> IncomingMessage {
    IncomingMessage(try JSONParser.parse(text))
  }

  func testRequestsNotificationsAndResponses() throws {
    guard
      case .request(let id, let method, let params) = try classify(
        #"{"jsonrpc":"2.0","id":9007199254740993,"method":"m","params":[1]}"#)
    else { return XCTFail() }
    XCTAssertEqual(id, .number(try XCTUnwrap(JSONParser.parse("9007199254740993").numberValue)))
    XCTAssertEqual(method, "m")
    XCTAssertEqual(params, [1])
    guard
      case .notification("n", nil) = try classify(#"{"jsonrpc":"2.0","method":"n","params":null}"#)
    else { return XCTFail("params null is absent params") }
    guard
      case .request(.null, "m", nil) = try classify(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#)
    else { return XCTFail() }
    guard case .response(.string("7")) = try classify(#"{"jsonrpc":"2.0","id":"7","result":1}"#)
    else { return XCTFail() }
  }

  func testInvalidRequestsKeepTheIdWhenReadable() throws {
    let cases: [(String, RequestID, String)] = [
      (#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, .string("x"), "jsonrpc must be \"2.0\""),
      (#"{"id":"x","method":"m"}"#, .string("x"), "jsonrpc must be \"2.0\""),
      (#"{"jsonrpc":"2.0","id":"x","method":1}"#, .string("x"), "method must be a string"),
      (
        #"{"jsonrpc":"2.0","id":"x","method":"m","params":"p"}"#, .string("x"),
        "params must be an object or an array"
      ),
      (#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, .null, "id must be a string, a number or null"),
      (#"{"jsonrpc":"2.0","id":"x"}"#, .string("x"), "method is missing"),
      ("1", .null, "a request must be a JSON object"),
    ]
    for (text, expectedID, reason) in cases.dropFirst() {
      guard case .invalid(let id, let error) = try classify(text) else { return XCTFail(text) }
      XCTAssertEqual(id, expectedID, text)
      XCTAssertEqual(error.code, -32600)
      XCTAssertEqual(error.data?["reason"], .string(reason), text)
    }
    guard case .invalid(let id, _) = try classify(cases[0].0) else { return XCTFail() }
    XCTAssertEqual(id, .number(try XCTUnwrap(JSONParser.parse("1").numberValue)))
  }

  func testRepliesAreWrittenInFixedMemberOrder() throws {
    var out: [UInt8] = []
    Reply.result(["a": [1, "x"]]).write(id: .string("1"), locale: .english, into: &out)
    XCTAssertEqual(
      String(decoding: out, as: UTF8.self), #"{"jsonrpc":"2.0","id":"1","result":{"a":[1,"x"]}}"#)
    out = []
    Reply.error(.methodNotFound("m")).write(id: .null, locale: .english, into: &out)
    XCTAssertEqual(
      String(decoding: out, as: UTF8.self),
      #"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"There is no method m; rpc.discover lists the methods.","data":{"method":"m"}}}"#
    )
    out = []
    Reply.error(.methodNotFound("m")).write(id: .null, locale: .korean, into: &out)
    XCTAssert(String(decoding: out, as: UTF8.self).contains(#""message":"m 메서드가 없습니다."#))
    out = []
    OutgoingMessage.notification(method: "quotes/loading", params: ["isLoading": true], into: &out)
    XCTAssertEqual(
      String(decoding: out, as: UTF8.self),
      #"{"jsonrpc":"2.0","method":"quotes/loading","params":{"isLoading":true}}"#)
  }
}
