import XCTest

@testable import Services

final class RemoteQuoteBackendTests: XCTestCase {
  private let einstein = quotableJSON(id: "e1")

  private static func quotableJSON(id: String) -> String {
    #"{"_id":"\#(id)","content":"Imagination is more important than knowledge.","#
      + #""author":"Albert Einstein","authorSlug":"albert-einstein","#
      + #""tags":["famous-quotes","inspirational"],"length":46}"#
  }

  private func backend(_ server: LocalHTTPServer, timeout: Duration = .seconds(5))
    -> RemoteQuoteBackend
  {
    RemoteQuoteBackend(baseURL: server.baseURL + "/", timeout: timeout)
  }

  func testRandomReadsAQuoteObject() async throws {
    let server = try LocalHTTPServer(["/random": [.json(einstein)]])
    defer { server.stop() }
    let quote = try await backend(server).random(QuoteFilter(), excluding: nil)
    XCTAssertEqual(
      quote,
      Quote(
        id: "e1", content: "Imagination is more important than knowledge.",
        author: "Albert Einstein", authorSlug: "albert-einstein",
        tags: ["famous-quotes", "inspirational"], length: 46))
    XCTAssertEqual(server.requests.map(\.target), ["/random"])
    XCTAssertEqual(server.requests.first?.headers["accept"], "application/json")
  }

  func testRandomReadsTheFirstQuoteOfAnArray() async throws {
    let server = try LocalHTTPServer([
      "/random": [
        .json(
          #"[{"_id":"a","content":"Héllo’","author":"Z Y","tags":[]},{"_id":"b","content":"x","author":"y","tags":[]}]"#
        )
      ]
    ])
    defer { server.stop() }
    let quote = try await backend(server).random(QuoteFilter(), excluding: nil)
    XCTAssertEqual(quote.id, "a")
    XCTAssertEqual(quote.length, 6, "computed from the content when missing")
    XCTAssertEqual(quote.authorSlug, "z-y")
  }

  func testAnEmptyArrayOrQuotable404IsNoMatch() async throws {
    let server = try LocalHTTPServer([
      "/random": [
        .json("[]"),
        .json(
          #"{"statusCode":404,"statusMessage":"Could not find any matching quotes"}"#, status: 404),
      ]
    ])
    defer { server.stop() }
    for _ in 0..<2 {
      let error = await thrownError {
        try await self.backend(server).random(QuoteFilter(), excluding: nil)
      }
      XCTAssertEqual(error as? QuotesError, .noMatch)
    }
  }

  func testFilterBecomesEncodedQueryParameters() async throws {
    let server = try LocalHTTPServer(["/random": [.json(einstein)]])
    defer { server.stop() }
    let filter = QuoteFilter(
      tags: ["famous-quotes", "love & life"], author: "Albert Einstein", minLength: 10,
      maxLength: 200)
    _ = try await backend(server).random(filter, excluding: nil)
    let request = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(request.path, "/random")
    XCTAssertEqual(
      request.query,
      [
        "tags": "famous-quotes,love & life", "author": "Albert Einstein", "minLength": "10",
        "maxLength": "200",
      ])
    XCTAssertTrue(request.target.contains("tags=famous-quotes%2Clove%20%26%20life"), request.target)
    XCTAssertTrue(request.target.contains("author=Albert%20Einstein"), request.target)
  }

  func testTheExcludedQuoteIsDrawnAgainOnce() async throws {
    let other = Self.quotableJSON(id: "e2")
    let server = try LocalHTTPServer(["/random": [.json(einstein), .json(other)]])
    defer { server.stop() }
    let quote = try await backend(server).random(QuoteFilter(), excluding: "e1")
    XCTAssertEqual(quote.id, "e2")
    XCTAssertEqual(server.requests.count, 2)
  }

  /// Two draws of the previous quote: the filter's list gives another one.
  func testASecondRepeatTakesAnotherQuoteOfTheFiltersList() async throws {
    let other = Self.quotableJSON(id: "e2")
    let server = try LocalHTTPServer([
      "/random": [.json(einstein)],
      "/quotes": [.json(#"{"results":["# + einstein + "," + other + "]}")],
    ])
    defer { server.stop() }
    let quote = try await backend(server).random(
      QuoteFilter(author: "Albert Einstein"), excluding: "e1")
    XCTAssertEqual(quote.id, "e2")
    XCTAssertEqual(server.requests.count, 3)
    let listed = try XCTUnwrap(server.requests.last)
    XCTAssertTrue(listed.target.hasPrefix("/quotes?"), listed.target)
    XCTAssertTrue(listed.target.contains("author=Albert%20Einstein"), listed.target)
    XCTAssertTrue(listed.target.contains("limit=2"), listed.target)
  }

  func testTheOnlyMatchComesAgain() async throws {
    let server = try LocalHTTPServer([
      "/random": [.json(einstein)], "/quotes": [.json(#"{"results":["# + einstein + "]}")],
    ])
    defer { server.stop() }
    let quote = try await backend(server).random(QuoteFilter(), excluding: "e1")
    XCTAssertEqual(quote.id, "e1", "the only quote the filter matches")
    XCTAssertEqual(server.requests.count, 3)
  }

  func testAnErrorStatusIsABadResponseWithTheUpstreamMessage() async throws {
    let server = try LocalHTTPServer([
      "/random": [.json(#"{"statusCode":500,"statusMessage":"Database on fire"}"#, status: 500)],
      "/quotes": [.json(#"{"message":"Too many requests"}"#, status: 429)],
    ])
    defer { server.stop() }
    let random = await thrownError {
      try await self.backend(server).random(QuoteFilter(), excluding: nil)
    }
    XCTAssertEqual(
      random as? UpstreamFailure,
      .refused(service: "quotes", status: 500, message: "Database on fire"))
    let list = await thrownError {
      try await self.backend(server).list(page: 1, limit: 5, author: nil, tags: [])
    }
    XCTAssertEqual(
      list as? UpstreamFailure,
      .refused(service: "quotes", status: 429, message: "Too many requests"))
  }

  func testA404WithoutQuotableMessageIsABadResponse() async throws {
    var html = LocalHTTPServer.Reply.json("<h1>Not Found</h1>", status: 404)
    html.contentType = "text/html"
    let server = try LocalHTTPServer(["/random": [html]])
    defer { server.stop() }
    let error = await thrownError {
      try await self.backend(server).random(QuoteFilter(), excluding: nil)
    }
    XCTAssertEqual(
      error as? UpstreamFailure, .badResponse(service: "quotes", status: 404, message: nil))
  }

  func testMalformedBodiesAreBadResponses() async throws {
    let bodies = [
      "not json": "not JSON",
      #"{"_id":"x","author":"A","tags":[]}"#: "content",
      #"{"_id":"x","content":"c","author":"A","tags":"wisdom"}"#: "tags",
      #"{"_id":7,"content":"c","author":"A"}"#: "_id",
      #""a string""#: "not an object",
    ]
    for (body, reason) in bodies {
      let server = try LocalHTTPServer(["/random": [.json(body)]])
      defer { server.stop() }
      let error = await thrownError {
        try await self.backend(server).random(QuoteFilter(), excluding: nil)
      }
      guard case .badResponse("quotes", 200, let message?) = error as? UpstreamFailure else {
        XCTFail("\(body): expected a bad response, got \(String(describing: error))")
        continue
      }
      XCTAssertTrue(message.hasPrefix("malformed response"), message)
      XCTAssertTrue(message.contains(reason), "\(body): \(message)")
    }
  }

  func testATimeoutIsUnavailable() async throws {
    let server = try LocalHTTPServer(["/random": [.json(einstein, delay: .seconds(3))]])
    defer { server.stop() }
    let error = await thrownError {
      try await self.backend(server, timeout: .milliseconds(200)).random(
        QuoteFilter(), excluding: nil)
    }
    guard case .unavailable("quotes", _) = error as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: error))")
    }
  }

  func testARefusedConnectionIsUnavailable() async throws {
    let backend = RemoteQuoteBackend(
      baseURL: "http://127.0.0.1:\(try LocalHTTPServer.unusedPort())")
    let error = await thrownError {
      try await backend.list(page: 1, limit: 5, author: nil, tags: [])
    }
    guard case .unavailable("quotes", let reason) = error as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: error))")
    }
    XCTAssertFalse(reason.isEmpty)
  }

  func testListReadsAQuotablePage() async throws {
    let server = try LocalHTTPServer([
      "/quotes": [
        .json(
          #"{"count":1,"totalCount":11,"page":2,"totalPages":3,"lastItemIndex":10,"results":[\#(einstein)]}"#
        ),
        .json(
          #"{"count":1,"totalCount":11,"page":3,"totalPages":3,"lastItemIndex":11,"results":[\#(einstein)]}"#
        ),
      ]
    ])
    defer { server.stop() }
    let backend = backend(server)
    let middle = try await backend.list(
      page: 2, limit: 5, author: "Albert Einstein", tags: ["famous-quotes"])
    XCTAssertEqual(middle.items.map(\.id), ["e1"])
    XCTAssertEqual(middle.page, 2)
    XCTAssertEqual(middle.nextPage, 3)
    let last = try await backend.list(page: 3, limit: 5, author: nil, tags: [])
    XCTAssertNil(last.nextPage)
    XCTAssertEqual(
      server.requests.map(\.query),
      [
        ["page": "2", "limit": "5", "author": "Albert Einstein", "tags": "famous-quotes"],
        ["page": "3", "limit": "5"],
      ])
    XCTAssertEqual(server.requests.map(\.path), ["/quotes", "/quotes"])
  }

  func testAListWithoutTotalPagesIsMalformed() async throws {
    let server = try LocalHTTPServer(["/quotes": [.json(#"{"page":1,"results":[]}"#)]])
    defer { server.stop() }
    let error = await thrownError {
      try await self.backend(server).list(page: 1, limit: 5, author: nil, tags: [])
    }
    guard case .badResponse("quotes", 200, let message?) = error as? UpstreamFailure else {
      return XCTFail("expected a bad response, got \(String(describing: error))")
    }
    XCTAssertTrue(message.contains("totalPages"), message)
  }
}
