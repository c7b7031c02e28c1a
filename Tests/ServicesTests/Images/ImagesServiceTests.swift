import Foundation
import Protocol
import XCTest

@testable import Services

/// `ImagesService` (`images/get`) against a local HTTP server: only URLs the
/// daemon handed out, one download shared by concurrent requests, one cache
/// shared with the photos, errors that name the host and leave no file.
final class ImagesServiceTests: XCTestCase {
  private var directory: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.path + "/catalogd-images-\(UUID())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private var cacheDirectory: String { directory + "/image-cache" }

  private func service(
    limit: Int = 1 << 20, authorities: [any ImageURLAuthority] = [],
    timeout: Duration = .seconds(5)
  ) -> ImagesService {
    ImagesService(
      cache: ImageCache(directory: cacheDirectory, limitBytes: limit), served: ServedImageURLs(),
      authorities: authorities, timeout: timeout)
  }

  /// A PNG of `width` × `height` padded to `size` bytes (readers stop at IEND).
  private static func png(width: Int = 4, height: Int = 3, size: Int = 0) -> [UInt8] {
    let png = TestImages.png(width: width, height: height)
    return png + [UInt8](repeating: 0, count: max(0, size - png.count))
  }

  private static func image(_ bytes: [UInt8], delay: Duration = .zero) -> LocalHTTPServer.Reply {
    LocalHTTPServer.Reply(status: 200, body: bytes, contentType: "image/png", delay: delay)
  }

  /// The cache folder's files, temporary ones included.
  private func cacheFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).sorted()
  }

  func testAServedURLIsDownloadedOnceThenServedFromTheCache() async throws {
    let server = try LocalHTTPServer(["/a.png": [Self.image(Self.png(width: 5, height: 7))]])
    defer { server.stop() }
    let images = service()
    let url = server.baseURL + "/a.png"
    images.served.record([url])
    let first = try await images.image(url: url)
    XCTAssertEqual(first.url, url)
    XCTAssertFalse(first.file.cached)
    XCTAssertEqual(first.file.format, .png)
    XCTAssertEqual([first.width, first.height], [5, 7])
    XCTAssertTrue(first.file.path.hasPrefix(cacheDirectory + "/"))
    XCTAssertEqual(
      Array(try Data(contentsOf: URL(fileURLWithPath: first.file.path))),
      Self.png(width: 5, height: 7))
    XCTAssertEqual(server.requests.first?.headers["accept"], "image/*")
    let second = try await images.image(url: url)
    XCTAssertTrue(second.file.cached)
    XCTAssertEqual(second.file.path, first.file.path)
    XCTAssertEqual(server.requests.count, 1)
    XCTAssertEqual(
      first.json,
      [
        "url": .string(url), "path": .string(first.file.path), "contentType": "image/png",
        "bytes": JSON(Self.png(width: 5, height: 7).count), "cached": false,
        "width": 5, "height": 7,
      ])
  }

  func testConcurrentRequestsForOneImageShareOneDownload() async throws {
    let server = try LocalHTTPServer([
      "/slow.png": [Self.image(Self.png(), delay: .milliseconds(300))]
    ])
    defer { server.stop() }
    let images = service()
    let url = server.baseURL + "/slow.png"
    images.served.record([url])
    let results = try await withThrowingTaskGroup(of: LocalImage.self) { group in
      for _ in 0..<8 { group.addTask { try await images.image(url: url) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(results.count, 8)
    XCTAssertEqual(Set(results.map(\.file.path)).count, 1)
    XCTAssertEqual(server.requests.count, 1, "one download at the server")
  }

  func testURLsNeverHandedOutAreRefusedWithoutARequest() async throws {
    let server = try LocalHTTPServer(["/a.png": [Self.image(Self.png())]])
    defer { server.stop() }
    let images = service(authorities: [ProductImageURLs.none])
    for url in [
      server.baseURL + "/a.png", "ftp://127.0.0.1/a.png", "not a url", "file:///etc/passwd",
      "file://elsewhere/tmp/a.png", "http:///a.png", "",
    ] {
      let error = await thrownError { try await images.image(url: url) }
      XCTAssertEqual(error as? InvalidArgument, ImagesService.notHandedOut, url)
    }
    XCTAssertEqual(server.requests.count, 0)
    XCTAssertEqual(
      ImagesService.notHandedOut.description,
      "url was not handed out by this daemon; images/get serves only photo and product image URLs")
  }

  func testFailedDownloadsNameTheHostAndLeaveNoFile() async throws {
    let big = Self.png(size: 5_000)
    let server = try LocalHTTPServer([
      "/500.png": [.json(#"{"error":"boom"}"#, status: 500)],
      "/big.png": [Self.image(big)],
      "/big-unannounced.png": [
        LocalHTTPServer.Reply(
          status: 200, body: big, contentType: "image/png", sendsContentLength: false)
      ],
      "/page.png": [.json("<html>not an image</html>")],
      "/slow.png": [Self.image(Self.png(), delay: .seconds(3))],
      "/hang-up.png": [.hangUp()],
    ])
    defer { server.stop() }
    let closed = "http://127.0.0.1:\(try LocalHTTPServer.unusedPort())/a.png"
    let images = service(limit: 1_000, timeout: .milliseconds(500))
    images.served.record(
      ["/500.png", "/big.png", "/big-unannounced.png", "/page.png", "/slow.png", "/hang-up.png"]
        .map { server.baseURL + $0 } + [closed])
    func failure(_ url: String) async -> ImageFetchError? {
      await thrownError { try await images.image(url: url) } as? ImageFetchError
    }
    let status = await failure(server.baseURL + "/500.png")
    XCTAssertEqual(status, .badStatus(host: "127.0.0.1", status: 500))
    for path in ["/big.png", "/big-unannounced.png"] {
      let tooLarge = await failure(server.baseURL + path)
      XCTAssertEqual(tooLarge, .tooLarge(host: "127.0.0.1", limit: 1_000), path)
    }
    let page = await failure(server.baseURL + "/page.png")
    XCTAssertEqual(page, .notAnImage(host: "127.0.0.1"))
    for url in [server.baseURL + "/slow.png", server.baseURL + "/hang-up.png", closed] {
      let unavailable = await failure(url)
      guard case .unavailable(let host, _) = unavailable else {
        XCTFail("\(url): got \(String(describing: unavailable))")
        continue
      }
      XCTAssertEqual(host, "127.0.0.1")
      XCTAssertTrue(unavailable?.description.contains("127.0.0.1") ?? false)
    }
    XCTAssertEqual(cacheFiles(), [], "nothing half-written is left")
    let size = await images.cache.size
    XCTAssertEqual(size, 0)
  }

  func testFileURLsAreTheFilesThemselves() async throws {
    let picture = directory + "/shelf/milk carton.png"
    try FileManager.default.createDirectory(
      atPath: directory + "/shelf", withIntermediateDirectories: true)
    try Data(Self.png(width: 6, height: 2)).write(to: URL(fileURLWithPath: picture))
    try Data("text".utf8).write(to: URL(fileURLWithPath: directory + "/shelf/notes.png"))
    let url = "file://" + directory + "/shelf/milk%20carton.png"
    let vouched: Set<String> = [
      url, "file://" + directory + "/shelf/notes.png", "file://" + directory + "/shelf/gone.png",
    ]
    let products = ProductImageURLs { vouched.contains($0.text) }
    let images = service(authorities: [products])
    let image = try await images.image(url: url)
    XCTAssertEqual(image.file.path, picture)
    XCTAssertEqual([image.width, image.height], [6, 2])
    XCTAssertEqual(image.file.bytes, Self.png(width: 6, height: 2).count)
    XCTAssertTrue(image.file.cached)
    for name in ["notes.png", "gone.png"] {
      let url = "file://" + directory + "/shelf/" + name
      let error = await thrownError { try await images.image(url: url) }
      XCTAssertEqual(error as? NotFound, NotFound(resource: "image", id: url))
    }
    XCTAssertEqual(cacheFiles(), [], "file: URLs are not copied")
  }

  func testAnAuthorityThatFailsIsNoRefusalUnlessNoneVouches() async throws {
    struct Broken: Error {}
    let failing = ProductImageURLs { _ in throw Broken() }
    let url = "file://" + directory + "/a.png"
    try Data(Self.png()).write(to: URL(fileURLWithPath: directory + "/a.png"))
    let alone = service(authorities: [failing])
    let error = await thrownError { try await alone.image(url: url) }
    XCTAssertTrue(error is Broken, "\(String(describing: error))")
    let withAnother = service(authorities: [failing, ProductImageURLs { $0.text == url }])
    let image = try await withAnother.image(url: url)
    XCTAssertEqual(image.file.path, directory + "/a.png")
  }

  func testFolderPhotosAreServedByTheirURLsAndNothingElseOfTheDisk() async throws {
    let folder = directory + "/photos"
    try SamplePhotos.write(into: folder)
    try Data(Self.png()).write(to: URL(fileURLWithPath: directory + "/outside.png"))
    try Data(Self.png()).write(to: URL(fileURLWithPath: folder + "/.hidden.png"))
    let photos = PhotosService(
      backend: FolderPhotoBackend(folder: folder, databasePath: nil))
    let images = service(authorities: [photos])
    let listed = try await photos.list(page: 1, limit: 5).items
    for photo in listed {
      let image = try await images.image(url: photo.url)
      XCTAssertEqual("file://" + image.file.path, photo.url)
      XCTAssertEqual([image.width, image.height], [photo.width, photo.height] as [Int?])
      XCTAssertEqual(image.file.bytes, photo.bytes)
    }
    let outside: [String] = [
      directory + "/outside.png", folder + "/../outside.png", folder + "/.hidden.png",
      folder + "/travel/../sample-001.png",
    ]
    for path in outside {
      let url = "file://" + path
      let error = await thrownError { try await images.image(url: url) }
      XCTAssertEqual(error as? InvalidArgument, ImagesService.notHandedOut, url)
    }
  }

  func testPhotosAndImagesShareOneCacheLeastRecentlyUsedFirst() async throws {
    let server = try LocalHTTPServer()
    defer { server.stop() }
    let body = Self.png(size: 1_000)
    var items: [String] = []
    for id in ["1", "2", "3"] {
      server.setReplies([Self.image(body)], for: "/download/\(id)")
      items.append(
        #"{"id":"\#(id)","author":"A","width":4,"height":3,"url":"https://unsplash.com/\#(id)","#
          + #""download_url":"\#(server.baseURL)/download/\#(id)"}"#)
    }
    server.setReplies([.json("[" + items.joined(separator: ",") + "]")], for: "/v2/list")
    let cache = ImageCache(directory: cacheDirectory, limitBytes: 2_500)
    let served = ServedImageURLs()
    let picsum = PicsumPhotoBackend(
      baseURL: server.baseURL, cache: cache, served: served, timeout: .seconds(5))
    let photos = PhotosService(backend: picsum)
    let images = ImagesService(cache: cache, served: served, authorities: [photos])
    let urls = try await photos.list(page: 1, limit: 3).items.map(\.url)
    // photos/image downloads photo 1; images/get of its URL finds the same file.
    let photo = try await photos.image(id: "1")
    let same = try await images.image(url: urls[0])
    XCTAssertTrue(same.file.cached)
    XCTAssertEqual(same.file.path, photo.path)
    // Two more images: the first (least recently used) goes.
    _ = try await images.image(url: urls[1])
    _ = try await images.image(url: urls[2])
    XCTAssertFalse(FileManager.default.fileExists(atPath: photo.path))
    let size = await cache.size
    XCTAssertEqual(size, 2 * body.count)
    XCTAssertEqual(cacheFiles().count, 2)
    let again = try await photos.image(id: "1")
    XCTAssertFalse(again.cached)
    XCTAssertEqual(
      server.requests.map(\.path).filter { $0.hasPrefix("/download/") },
      ["/download/1", "/download/2", "/download/3", "/download/1"])
  }
}
