import Foundation
import Protocol
import XCTest

@testable import Services

/// `FolderPhotoBackend` behind `PhotosService`: pages, images, the default
/// folder of samples, and errors.
final class PhotoFolderBackendTests: XCTestCase {
  private var root: String!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.path + "/catalogd-photo-folder-\(UUID())"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: root)
  }

  /// The samples, written once for the tests that only read them.
  private static let sharedSamples: String = {
    let folder = FileManager.default.temporaryDirectory.path + "/catalogd-photo-samples-\(UUID())"
    try? SamplePhotos.write(into: folder)
    return folder
  }()

  override class func tearDown() {
    try? FileManager.default.removeItem(atPath: sharedSamples)
  }

  /// The service on the shared samples, with a cache of its own.
  private func sharedService() -> PhotosService {
    PhotosService(
      backend: FolderPhotoBackend(
        folder: Self.sharedSamples, databasePath: root + "/photos.sqlite"))
  }

  /// The service on the default folder of a fresh data dir.
  private func samplesService() -> PhotosService {
    PhotosService(
      backend: FolderPhotoBackend(
        folder: root + "/data/photos", databasePath: root + "/data/photos.sqlite",
        populatesSamples: true))
  }

  func testAFreshMachineHasFourPagesOfSamples() async throws {
    let service = samplesService()
    var pages: [PhotoPage] = []
    var next: Int? = 1
    while let page = next {
      let loaded = try await service.list(page: page)
      pages.append(loaded)
      next = loaded.nextPage
    }
    XCTAssertEqual(pages.map(\.page), [1, 2, 3, 4])
    XCTAssertEqual(pages.map(\.items.count), [30, 30, 30, 30])
    let items = pages.flatMap(\.items)
    XCTAssertEqual(Set(items.map(\.id)).count, SamplePhotos.count)
    XCTAssertEqual(items.first?.url, "file://\(root!)/data/photos/sample-001.png")
    XCTAssertEqual(items.last?.url, "file://\(root!)/data/photos/travel/sample-120.png")
    XCTAssertTrue(items.allSatisfy { $0.source == .folder && $0.width > 0 && $0.height > 0 })
    XCTAssertEqual(items.first?.author, SamplePhotos.author(1))
    XCTAssertEqual(items[2].author, SamplePhotos.author(3))  // sample-003.gif: in its XMP
    let beyond = try await service.list(page: 5)
    XCTAssertEqual(beyond, PhotoPage(items: [], page: 5, nextPage: nil))
  }

  func testPagesOfOtherSizes() async throws {
    let service = sharedService()
    let page = try await service.list(page: 2, limit: 50)
    XCTAssertEqual(page.items.count, 50)
    XCTAssertEqual(page.nextPage, 3)
    let last = try await service.list(page: 3, limit: 50)
    XCTAssertEqual(last.items.count, 20)
    XCTAssertNil(last.nextPage)
    let all = try await service.list(page: 1, limit: 100)
    XCTAssertEqual(Array(all.items[50..<100]), page.items)
    let huge = try await service.list(page: Int.max / 2, limit: 100)
    XCTAssertEqual(huge.items, [])
  }

  func testTheWireShapeOfAPhotoAndAPage() async throws {
    let photo = Photo(
      id: "abc", author: nil, width: 3, height: 4, url: "file:///x.png", source: .folder,
      bytes: 1234)
    XCTAssertEqual(
      String(
        decoding: PhotoPage(items: [photo], page: 1, nextPage: nil).json.serialized(), as: UTF8.self
      ),
      #"{"items":[{"id":"abc","author":null,"width":3,"height":4,"url":"file:///x.png","source":"folder","bytes":1234,"pageUrl":null}],"page":1,"nextPage":null}"#
    )
    let image = ImageFile(path: "/x.png", format: .png, bytes: 10, cached: true)
    XCTAssertEqual(
      String(decoding: image.json.serialized(), as: UTF8.self),
      #"{"path":"/x.png","contentType":"image/png","bytes":10,"cached":true}"#)
  }

  func testImageGivesTheFileItself() async throws {
    let service = sharedService()
    let items = try await service.list(page: 1).items
    for photo in items.prefix(8) {
      let image = try await service.image(id: photo.id)
      XCTAssertEqual("file://" + image.path, photo.url)
      XCTAssertTrue(image.cached)
      let header = try ImageHeader.read(path: image.path)
      XCTAssertEqual(image.contentType, header.format.contentType)
      let size = try FileManager.default.attributesOfItem(atPath: image.path)[.size] as? Int
      XCTAssertEqual(image.bytes, size)
    }
  }

  func testUnknownAndMalformedIdsAreNotFound() async throws {
    let service = sharedService()
    for id in ["0000000000000000", "nope", "", "../../etc/passwd", "ABCDEF0123456789"] {
      let error = await thrownError { try await service.image(id: id) }
      XCTAssertEqual(error as? NotFound, NotFound(resource: "photo", id: id))
    }
  }

  func testADeletedFileIsNotFound() async throws {
    let service = samplesService()
    let first = try await service.list(page: 1).items[0]
    try FileManager.default.removeItem(atPath: String(first.url.dropFirst("file://".count)))
    let error = await thrownError { try await service.image(id: first.id) }
    XCTAssertEqual(error as? NotFound, NotFound(resource: "photo", id: first.id))
  }

  func testPageOneSeesNewFilesAndImageFindsThem() async throws {
    let folder = root + "/mine"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(TestImages.png(width: 5, height: 5)).write(to: URL(fileURLWithPath: folder + "/b.png"))
    let backend = FolderPhotoBackend(
      folder: folder, databasePath: root + "/photos.sqlite", firstPageMaxAge: .zero)
    let service = PhotosService(backend: backend)
    let before = try await service.list(page: 1)
    XCTAssertEqual(before.items.count, 1)
    try Data(TestImages.gif(width: 6, height: 7)).write(
      to: URL(fileURLWithPath: folder + "/a b ü.gif"))
    let after = try await service.list(page: 1)
    XCTAssertEqual(after.items.map(\.width), [6, 5])
    XCTAssertEqual(after.items[0].url, "file://\(folder)/a%20b%20%C3%BC.gif")
    let image = try await service.image(id: PhotoID.make("a b ü.gif"))
    XCTAssertEqual(image.path, folder + "/a b ü.gif")
    XCTAssertEqual(image.contentType, "image/gif")
    XCTAssertEqual(backend.kind, "embedded")
  }

  func testAConfiguredFolderThatIsMissingIsAnUnavailableUpstream() async throws {
    let service = PhotosService(
      backend: FolderPhotoBackend(folder: root + "/missing", databasePath: nil))
    let error = await thrownError { try await service.list(page: 1) }
    guard case .unavailable(let service, let reason) = error as? UpstreamFailure else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertEqual(service, "photos")
    XCTAssertTrue(reason.contains("No such file or directory"), reason)
    XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/missing"))
  }

  func testParamsOutOfRangeAreInvalid() async throws {
    let service = sharedService()
    for (page, limit, field) in [
      (0, 30, "page"), (-1, 30, "page"), (1, 0, "limit"), (1, 101, "limit"),
    ] {
      let error = await thrownError { try await service.list(page: page, limit: limit) }
      XCTAssertEqual((error as? InvalidArgument)?.field, field)
    }
  }
}
