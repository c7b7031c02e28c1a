import Foundation
import XCTest

@testable import Services

/// `PicsumPhotoBackend` against a local stand-in of picsum.photos.
final class PhotoPicsumBackendTests: XCTestCase {
  private var directory: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.path + "/catalogd-picsum-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func backend(_ server: LocalHTTPServer, limit: Int = 1 << 20) -> PicsumPhotoBackend {
    PicsumPhotoBackend(
      baseURL: server.baseURL + "/",
      cache: ImageCache(directory: directory + "/image-cache", limitBytes: limit),
      timeout: .seconds(5))
  }

  private func item(_ id: String, _ server: LocalHTTPServer, author: String = "Alejandro Escamilla")
    -> String
  {
    #"{"id":"\#(id)","author":"\#(author)","width":5000,"height":3333,"#
      + #""url":"https://unsplash.com/photos/\#(id)","download_url":"\#(server.baseURL)/id/\#(id)/5000/3333"}"#
  }

  private static let png = TestImages.png(width: 4, height: 3)

  func testListsAPageAndGuessesTheNextOneFromItsLength() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    server.setReplies(
      [.json("[" + item("0", server) + "," + item("1", server) + "]")], for: "/v2/list")
    let backend = backend(server)
    let page = try await backend.list(page: 3, limit: 2)
    XCTAssertEqual(page.page, 3)
    XCTAssertEqual(page.nextPage, 4)
    XCTAssertEqual(
      page.items.first,
      Photo(
        id: "0", author: "Alejandro Escamilla", width: 5000, height: 3333,
        url: server.baseURL + "/id/0/5000/3333", source: .picsum,
        pageURL: "https://unsplash.com/photos/0"))
    XCTAssertEqual(server.requests.first?.target, "/v2/list?page=3&limit=2")
    XCTAssertEqual(server.requests.first?.headers["accept"], "application/json")
    let last = try await backend.list(page: 4, limit: 3)
    XCTAssertNil(last.nextPage)
    XCTAssertEqual(backend.kind, "remote")
  }

  func testBadListsAreUpstreamErrors() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    let backend = backend(server)
    for (reply, status) in [
      (LocalHTTPServer.Reply.json(#"{"error":"boom"}"#, status: 500), 500),
      (.json("not json"), 200), (.json(#"{"items":[]}"#), 200),
      (.json(#"[{"id":"1","width":0,"height":1,"download_url":"http://x/1"}]"#), 200),
      (.json(#"[{"id":"1","width":1,"height":1,"download_url":"file:///etc/passwd"}]"#), 200),
    ] {
      server.setReplies([reply], for: "/v2/list")
      let error = await thrownError { try await backend.list(page: 1, limit: 30) }
      let failure = error as? UpstreamFailure
      guard case .badResponse(let service, let got, _) = failure else {
        guard case .refused(let service, let got, _) = failure else {
          XCTFail("got \(String(describing: error))")
          continue
        }
        XCTAssertEqual(service, "photos")
        XCTAssertEqual(got, status)
        continue
      }
      XCTAssertEqual(service, "photos")
      XCTAssertEqual(got, status)
    }
  }

  func testAnUnreachableServerIsUnavailable() async throws {
    let port = try LocalHTTPServer.unusedPort()
    let backend = PicsumPhotoBackend(
      baseURL: "http://127.0.0.1:\(port)",
      cache: ImageCache(directory: directory, limitBytes: 1 << 20), timeout: .seconds(2))
    let error = await thrownError { try await backend.list(page: 1, limit: 30) }
    guard case .unavailable(let service, _) = error as? UpstreamFailure else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertEqual(service, "photos")
  }

  func testImageOfAListedPhotoIsDownloadedOnceThenCached() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    server.setReplies([.json("[" + item("7", server) + "]")], for: "/v2/list")
    server.setReplies(
      [LocalHTTPServer.Reply(status: 200, body: Self.png, contentType: "image/png")],
      for: "/id/7/5000/3333")
    let backend = backend(server)
    _ = try await backend.list(page: 1, limit: 30)
    let first = try await backend.image(id: "7")
    XCTAssertFalse(first.cached)
    XCTAssertEqual(first.contentType, "image/png")
    XCTAssertEqual(first.bytes, Self.png.count)
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: first.path))), Self.png)
    XCTAssertTrue(first.path.hasPrefix(directory + "/image-cache/"))
    let second = try await backend.image(id: "7")
    XCTAssertTrue(second.cached)
    XCTAssertEqual(server.requests.map(\.path), ["/v2/list", "/id/7/5000/3333"])
  }

  func testConcurrentRequestsForOneImageShareOneDownload() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    server.setReplies(
      [
        LocalHTTPServer.Reply(
          status: 200, body: Self.png, contentType: "image/png", delay: .milliseconds(300))
      ],
      for: "/id/9/5000/3333")
    server.setReplies([.json("[" + item("9", server) + "]")], for: "/v2/list")
    let backend = backend(server)
    _ = try await backend.list(page: 1, limit: 1)
    let images = try await withThrowingTaskGroup(of: ImageFile.self) { group in
      for _ in 0..<6 { group.addTask { try await backend.image(id: "9") } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(images.count, 6)
    XCTAssertEqual(server.requests.filter { $0.path == "/id/9/5000/3333" }.count, 1)
  }

  func testAnUnlistedPhotoIsLookedUpByItsInfo() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    server.setReplies([.json(item("42", server))], for: "/id/42/info")
    server.setReplies(
      [
        LocalHTTPServer.Reply(
          status: 200, body: TestImages.gif(width: 2, height: 2), contentType: "image/gif")
      ],
      for: "/id/42/5000/3333")
    let image = try await backend(server).image(id: "42")
    XCTAssertEqual(image.contentType, "image/gif")
    XCTAssertTrue(image.path.hasSuffix(".gif"))
  }

  func testMissingPhotosAreNotFoundAndOtherBodiesAreUpstreamErrors() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    let backend = backend(server)
    // The stand-in answers 404 for any path it does not know.
    let missing = await thrownError { try await backend.image(id: "nope") }
    XCTAssertEqual(missing as? NotFound, NotFound(resource: "photo", id: "nope"))
    XCTAssertEqual(server.requests.last?.path, "/id/nope/info")
    let strange = await thrownError { try await backend.image(id: "a/../b c") }
    XCTAssertEqual(strange as? NotFound, NotFound(resource: "photo", id: "a/../b c"))
    XCTAssertEqual(server.requests.last?.target, "/id/a%2F..%2Fb%20c/info")

    server.setReplies([.json(item("5", server))], for: "/id/5/info")
    server.setReplies([.json("<html>not an image</html>")], for: "/id/5/5000/3333")
    let notImage = await thrownError { try await backend.image(id: "5") }
    guard case .badResponse(_, let status, let message) = notImage as? UpstreamFailure else {
      return XCTFail("got \(String(describing: notImage))")
    }
    XCTAssertEqual(status, 200)
    XCTAssertEqual(message, "the image is not a JPEG, PNG, GIF or WebP file")
    let cacheFiles =
      (try? FileManager.default.contentsOfDirectory(atPath: directory + "/image-cache")) ?? []
    XCTAssertEqual(cacheFiles, [])
  }

  func testListedDownloadURLsAndTheServersOwnAreHandedOut() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    let elsewhere = "http://other.example:8080/id/3/10/10"
    server.setReplies(
      [
        .json(
          "[" + item("3", server).replacing(server.baseURL + "/id/3/5000/3333", with: elsewhere)
            + "]")
      ], for: "/v2/list")
    let backend = backend(server)
    func handedOut(_ url: String) async throws -> Bool {
      try await backend.handedOut(imageURL: XCTUnwrap(ImageURL(url)))
    }
    let before = try await handedOut(elsewhere)
    XCTAssertFalse(before)
    _ = try await backend.list(page: 1, limit: 30)
    XCTAssertTrue(backend.served.contains(elsewhere))
    let listed = try await handedOut(elsewhere)
    XCTAssertTrue(listed, "the list named it")
    let own = try await handedOut(server.baseURL + "/id/99/200/300")
    XCTAssertTrue(own, "a URL of the configured server")
    let foreign = try await handedOut("http://other.example:8080/id/4/10/10")
    XCTAssertFalse(foreign)
    let file = try await handedOut("file:///etc/passwd")
    XCTAssertFalse(file)
  }
}
