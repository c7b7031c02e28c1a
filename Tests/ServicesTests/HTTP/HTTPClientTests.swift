import XCTest

@testable import Services

final class HTTPClientTests: XCTestCase {
  private let client = HTTPClient()

  private func failure(of request: HTTPRequest) async -> HTTPFailure? {
    do {
      let response = try await client.send(request)
      XCTFail("expected a failure, got status \(response.status)")
      return nil
    } catch {
      return error
    }
  }

  func testGetReturnsStatusBodyAndContentTypeAndSendsHeaders() async throws {
    let server = try LocalHTTPServer(["/hello": [.json(#"{"hi":1}"#)]])
    defer { server.stop() }
    let response = try await client.send(
      HTTPRequest(url: server.baseURL + "/hello?x=1", headers: [.init("X-Client", "tests")]))
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"hi":1}"#)
    XCTAssertEqual(response.contentType, "application/json")
    let request = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(request.method, "GET")
    XCTAssertEqual(request.target, "/hello?x=1")
    XCTAssertEqual(request.headers["x-client"], "tests")
  }

  func testPostSendsTheBody() async throws {
    let server = try LocalHTTPServer(["/items": [.json("{}", status: 201)]])
    defer { server.stop() }
    let body = Array(#"{"name":"무"}"#.utf8)
    let response = try await client.send(
      HTTPRequest(
        method: "POST", url: server.baseURL + "/items",
        headers: [.init("Content-Type", "application/json")], body: body))
    XCTAssertEqual(response.status, 201)
    let request = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(request.method, "POST")
    XCTAssertEqual(request.body, body)
    XCTAssertEqual(request.headers["content-type"], "application/json")
  }

  func testAnErrorStatusIsAResponseWithItsBody() async throws {
    let server = try LocalHTTPServer(["/down": [.json(#"{"message":"busy"}"#, status: 503)]])
    defer { server.stop() }
    let response = try await client.send(HTTPRequest(url: server.baseURL + "/down"))
    XCTAssertEqual(response.status, 503)
    XCTAssertFalse(response.isSuccess)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"message":"busy"}"#)
  }

  func testASlowServerTimesOutAsUnavailable() async throws {
    let server = try LocalHTTPServer(["/slow": [.json("{}", delay: .seconds(3))]])
    defer { server.stop() }
    let clock = ContinuousClock()
    let start = clock.now
    let failure = await failure(
      of: HTTPRequest(url: server.baseURL + "/slow", timeout: .milliseconds(300)))
    guard case .unavailable(let reason) = failure else {
      return XCTFail("expected unavailable, got \(String(describing: failure))")
    }
    XCTAssertTrue(reason.lowercased().contains("timed out"), reason)
    XCTAssertLessThan(clock.now - start, .seconds(2))
  }

  func testARefusedConnectionIsUnavailable() async throws {
    let port = try LocalHTTPServer.unusedPort()
    let failure = await failure(of: HTTPRequest(url: "http://127.0.0.1:\(port)/"))
    guard case .unavailable = failure else {
      return XCTFail("expected unavailable, got \(String(describing: failure))")
    }
  }

  func testAServerThatHangsUpIsUnavailable() async throws {
    let server = try LocalHTTPServer(["/gone": [.hangUp()]])
    defer { server.stop() }
    let failure = await failure(of: HTTPRequest(url: server.baseURL + "/gone"))
    guard case .unavailable = failure else {
      return XCTFail("expected unavailable, got \(String(describing: failure))")
    }
  }

  func testALargerBodyThanAllowedIsTooLarge() async throws {
    let big = String(repeating: "x", count: 10_000)
    var unsized = LocalHTTPServer.Reply.json(big)
    unsized.sendsContentLength = false
    let server = try LocalHTTPServer(["/sized": [.json(big)], "/unsized": [unsized]])
    defer { server.stop() }
    for path in ["/sized", "/unsized"] {
      let failure = await failure(
        of: HTTPRequest(url: server.baseURL + path, maxResponseBytes: 1_000))
      XCTAssertEqual(failure, .tooLarge(limit: 1_000), path)
    }
    let response = try await client.send(
      HTTPRequest(url: server.baseURL + "/unsized", maxResponseBytes: 10_000))
    XCTAssertEqual(response.body.count, 10_000, "a body of exactly the limit is accepted")
  }

  func testCancellingTheTaskAbortsTheTransferAtOnce() async throws {
    let server = try LocalHTTPServer(["/slow": [.json("{}", delay: .seconds(5))]])
    defer { server.stop() }
    let client = client
    let url = server.baseURL + "/slow"
    let transfer = Task { try await client.send(HTTPRequest(url: url)) }
    while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    let clock = ContinuousClock()
    let start = clock.now
    transfer.cancel()
    let result = await transfer.result
    XCTAssertLessThan(clock.now - start, .milliseconds(500))
    guard case .failure(let error) = result else { return XCTFail("expected a failure") }
    XCTAssertEqual(error as? HTTPFailure, .cancelled)
  }

  func testAnAlreadyCancelledTaskSendsNothing() async throws {
    let server = try LocalHTTPServer(["/x": [.json("{}")]])
    defer { server.stop() }
    let client = client
    let url = server.baseURL + "/x"
    let transfer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.send(HTTPRequest(url: url))
    }
    let result = await transfer.result
    guard case .failure(let error) = result else { return XCTFail("expected a failure") }
    XCTAssertEqual(error as? HTTPFailure, .cancelled)
    XCTAssertEqual(server.requests.count, 0)
  }

  func testHeaderInjectionAndOtherSchemesAreRefused() async {
    let injected = await failure(
      of: HTTPRequest(url: "http://127.0.0.1:1/", headers: [.init("X-A", "1\r\nX-B: 2")]))
    guard case .failed = injected else {
      return XCTFail("expected failed, got \(String(describing: injected))")
    }
    let file = await failure(of: HTTPRequest(url: "file:///etc/passwd"))
    guard case .failed = file else {
      return XCTFail("expected failed, got \(String(describing: file))")
    }
  }

  func testLibcurlIsAvailable() throws {
    XCTAssertNoThrow(try HTTPClient.checkAvailability())
  }
}
