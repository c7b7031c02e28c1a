import Foundation
import XCTest

@testable import Services

/// A photos folder followed live (`FolderPhotoBackend.events()` and
/// `list(after:limit:)`) on a real folder: after the changes settle, a
/// consumer's first listing with every event applied, and the live listing,
/// are what a full scan of the folder lists.
final class PhotoFolderLiveTests: XCTestCase {
  private var folder: TestFolder!
  private var data: TestFolder!

  override func setUpWithError() throws {
    folder = try TestFolder.make("photo-live")
    data = try TestFolder.make("photo-live-data")
  }

  override func tearDown() {
    folder.delete()
    data.delete()
  }

  private func backend(
    _ lines: PhotoIndexTests.LogLines = PhotoIndexTests.LogLines(),
    firstPageMaxAge: Duration = .seconds(2)
  ) -> FolderPhotoBackend {
    FolderPhotoBackend(
      folder: folder.path, databasePath: data.absolute("photos.sqlite"),
      firstPageMaxAge: firstPageMaxAge, log: lines.log)
  }

  /// A consumer of `backend`: subscribed, then listed once.
  private struct Consumer {
    let events: CollectedEvents
    let first: FeedMirror
  }

  private func consume(_ backend: FolderPhotoBackend) async throws -> Consumer {
    let events = CollectedEvents(backend.events())
    return Consumer(events: events, first: try await FeedMirror.listed(backend))
  }

  /// Waits until the consumer's listing with its events applied is what a
  /// full scan lists, then checks the live listing and the cache too.
  private func settle(
    _ backend: FolderPhotoBackend, _ consumer: Consumer, file: StaticString = #filePath,
    line: UInt = #line
  ) async throws {
    var scanned = FeedMirror([])
    var mirrored = FeedMirror([])
    let settled = try await waitUntil("the events to match a scan", file: file, line: line) {
      scanned = try await FeedMirror.scanned(folder.path)
      let reload = try await FeedMirror.listed(backend)
      mirrored = consumer.first.applying(consumer.events.all, reload: reload)
      return mirrored == scanned
    }
    if !settled {
      XCTAssertEqual(mirrored.paths, scanned.paths, file: file, line: line)
      return
    }
    let listed = try await FeedMirror.listed(backend)
    XCTAssertEqual(listed, scanned, "the live listing", file: file, line: line)
    let snapshot = try await backend.index.snapshot(maxAge: .seconds(3_600))
    let fresh = try await PhotoIndex(folder: folder.path, databasePath: nil).scan()
    XCTAssertEqual(snapshot.photos, fresh.photos, "the index", file: file, line: line)
    // The cache is in step: a new process reads no file.
    let restarted = try await PhotoIndex(
      folder: folder.path, databasePath: data.absolute("photos.sqlite")
    ).scan()
    XCTAssertEqual(restarted.report.read, 0, "files read after a restart", file: file, line: line)
    XCTAssertEqual(restarted.photos, fresh.photos, file: file, line: line)
  }

  func testFilesAddedRemovedAndRewrittenBecomeChanges() async throws {
    for name in ["a.png", "b.png", "c.gif"] {
      try folder.write(TestImages.png(width: 4, height: 4), name)
    }
    let backend = backend()
    let consumer = try await consume(backend)
    XCTAssertEqual(consumer.first.paths, ["a.png", "b.png", "c.gif"])
    XCTAssertTrue(backend.isLive)
    try folder.write(TestImages.gif(width: 6, height: 7), "new.gif")
    try folder.remove("b.png")
    try folder.write(
      TestImages.png(
        width: 40, height: 30, extra: [TestImages.pngText("Author", Array("Bo".utf8))]), "a.png")
    try await settle(backend, consumer)
    let changes = consumer.events.changes
    let page = try await PhotosService(backend: backend).list(page: 1)
    let new = try XCTUnwrap(page.items.first { $0.id == PhotoID.make("new.gif") })
    XCTAssertTrue(changes.contains(.upserted(photo: new, relativePath: "new.gif")))
    XCTAssertTrue(changes.contains(.removed(id: PhotoID.make("b.png"), relativePath: "b.png")))
    let rewritten = try XCTUnwrap(page.items.first { $0.id == PhotoID.make("a.png") })
    XCTAssertEqual([rewritten.width, rewritten.height], [40, 30])
    XCTAssertEqual(rewritten.author, "Bo")
    XCTAssertTrue(changes.contains(.upserted(photo: rewritten, relativePath: "a.png")))
    XCTAssertEqual(consumer.events.resyncs, 0)
  }

  func testAFolderMadeWithFilesInItIsListedWhole() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "top.png")
    let backend = backend()
    let consumer = try await consume(backend)
    // Written as fast as possible after the folder: the race of a watch
    // added after the first files.
    try folder.makeFolder("roll/deeper")
    for number in 0..<50 {
      try folder.write(TestImages.png(width: number + 1, height: 1), "roll/p\(number).png")
      try folder.write(TestImages.png(width: 1, height: number + 1), "roll/deeper/q\(number).png")
    }
    try await settle(backend, consumer)
    let count = try await FeedMirror.listed(backend).photos.count
    XCTAssertEqual(count, 101)
  }

  func testMovesInAndOutAndARenamedFolder() async throws {
    let outside = try TestFolder.make("photo-live-outside")
    defer { outside.delete() }
    try outside.write(TestImages.png(width: 2, height: 2), "single.png")
    for number in 0..<10 {
      try outside.write(TestImages.png(width: 3, height: 3), "album/p\(number).png")
    }
    try folder.write(TestImages.png(width: 5, height: 5), "leaving.png")
    for number in 0..<10 {
      try folder.write(TestImages.png(width: 4, height: 4), "trip/sub/p\(number).png")
    }
    let backend = backend()
    let consumer = try await consume(backend)
    folder.move(outside.absolute("single.png"), to: folder.absolute("single.png"))
    folder.move(outside.absolute("album"), to: folder.absolute("album"))
    folder.move(folder.absolute("leaving.png"), to: outside.absolute("leaving.png"))
    folder.move(folder.absolute("trip"), to: folder.absolute("journey"))
    try await settle(backend, consumer)
    let paths = try await FeedMirror.listed(backend).paths
    XCTAssertEqual(paths.count, 21)
    XCTAssertTrue(paths.contains("journey/sub/p0.png"))
    XCTAssertFalse(paths.contains { $0.hasPrefix("trip/") })
    // The renamed folder is followed under its new name.
    try folder.write(TestImages.png(width: 9, height: 9), "journey/sub/p0.png")
    try folder.remove("album/p3.png")
    try await settle(backend, consumer)
  }

  func testAFolderReplacedByAFileAndBack() async throws {
    try folder.write(TestImages.png(width: 2, height: 2), "x/inside.png")
    let backend = backend()
    let consumer = try await consume(backend)
    try folder.remove("x")
    try folder.write(TestImages.png(width: 3, height: 3), "x")
    try await settle(backend, consumer)
    try folder.remove("x")
    try folder.write(TestImages.png(width: 4, height: 4), "x/again.png")
    try await settle(backend, consumer)
  }

  func testTwoNamesOfOneCanonicalFormStayTwoPhotos() async throws {
    let backend = backend()
    let consumer = try await consume(backend)
    try folder.write(TestImages.png(width: 1, height: 1), "caf\u{E9}.png")
    try folder.write(TestImages.png(width: 2, height: 2), "cafe\u{301}.png")
    try await settle(backend, consumer)
    let count = try await FeedMirror.listed(backend).photos.count
    XCTAssertEqual(count, 2)
  }

  func testAChangeWithNothingToSeeIsNoEvent() async throws {
    let bytes = TestImages.png(width: 3, height: 3)
    try folder.write(bytes, "same.png")
    let backend = backend()
    let consumer = try await consume(backend)
    try folder.write(bytes, "same.png")  // a new modification time, the same photo
    try folder.write(Array("notes".utf8), "notes.txt")
    try folder.write(bytes, ".hidden.png")
    XCTAssertEqual(chmod(folder.absolute("same.png"), 0o600), 0)
    // A change after them: batches are applied in turn, so theirs came first.
    try folder.write(bytes, "marker.png")
    await waitUntil("the marker") { consumer.events.changedPaths.contains("marker.png") }
    XCTAssertEqual(consumer.events.changedPaths, ["marker.png"])
    try await settle(backend, consumer)
  }

  func testEverySubscriberGetsEveryEvent() async throws {
    let backend = backend()
    let first = try await consume(backend)
    let second = CollectedEvents(backend.events())
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    await waitUntil("both") {
      first.events.changedPaths == ["a.png"] && second.changedPaths == ["a.png"]
    }
  }

  func testPagesAndImagesComeFromTheLiveIndexWithoutAScan() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    let lines = PhotoIndexTests.LogLines()
    // Without watching, every first page would scan again.
    let backend = backend(lines, firstPageMaxAge: .zero)
    let service = PhotosService(backend: backend)
    let consumer = try await consume(backend)
    let scans = lines.all.filter { $0.1 == "photos indexed" }.count
    try folder.write(TestImages.gif(width: 8, height: 9), "b.gif")
    await waitUntil("b.gif") { consumer.events.changedPaths == ["b.gif"] }
    let page = try await service.list(page: 1)
    XCTAssertEqual(page.items.map(\.width), [1, 8])
    let image = try await service.image(id: PhotoID.make("b.gif"))
    XCTAssertEqual(image.path, folder.absolute("b.gif"))
    XCTAssertEqual(image.contentType, "image/gif")
    XCTAssertEqual(lines.all.filter { $0.1 == "photos indexed" }.count, scans)
  }

  func testListAfterAPath() async throws {
    for name in ["a.png", "b.png", "c/d.png", "e.png"] {
      try folder.write(TestImages.png(width: 1, height: 1), name)
    }
    let backend = backend()
    let first = try await backend.list(after: nil, limit: 2)
    XCTAssertEqual(first.items.map(\.relativePath), ["a.png", "b.png"])
    XCTAssertFalse(first.endReached)
    let rest = try await backend.list(after: "b.png", limit: 10)
    XCTAssertEqual(rest.items.map(\.relativePath), ["c/d.png", "e.png"])
    XCTAssertTrue(rest.endReached)
    // A path no longer listed still places the page.
    let gone = try await backend.list(after: "b0.png", limit: 1)
    XCTAssertEqual(gone.items.map(\.relativePath), ["c/d.png"])
    XCTAssertFalse(gone.endReached)
    let empty = try await backend.list(after: "e.png", limit: 5)
    XCTAssertTrue(empty.items.isEmpty)
    XCTAssertTrue(empty.endReached)
    let page = try await PhotosService(backend: backend).list(page: 1)
    XCTAssertEqual(first.items[0].photo, page.items[0])
  }

  func testAnOverflowRescansAndSendsResync() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    let lines = PhotoIndexTests.LogLines()
    let backend = backend(lines)
    let consumer = try await consume(backend)
    let scans = lines.all.filter { $0.1 == "photos indexed" }.count
    backend.live.handleAsReported(.overflow)
    await waitUntil("a resync") { consumer.events.resyncs == 1 }
    XCTAssertEqual(lines.all.filter { $0.1 == "photos indexed" }.count, scans + 1)
    // Still live afterwards.
    try folder.write(TestImages.png(width: 2, height: 2), "b.png")
    try await settle(backend, consumer)
  }

  func testTheFolderDeletedSendsResyncAndARecreatedOneIsFollowedAgain() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    let backend = backend()
    let consumer = try await consume(backend)
    folder.delete()
    await waitUntil("a resync") { consumer.events.resyncs == 1 }
    XCTAssertFalse(backend.isLive)
    let error = await thrownError { try await backend.list(after: nil, limit: 10) }
    XCTAssertNotNil(error as? UpstreamFailure)
    try folder.write(TestImages.png(width: 2, height: 2), "b.png")
    let listed = try await backend.list(after: nil, limit: 10)
    XCTAssertEqual(listed.items.map(\.relativePath), ["b.png"])
    XCTAssertTrue(backend.isLive)
    await waitUntil("the resync of the restart") { consumer.events.resyncs == 2 }
    try folder.write(TestImages.png(width: 3, height: 3), "c.png")
    try await settle(backend, consumer)
  }

  func testABurstOfFilesSettles() async throws {
    let backend = backend()
    let consumer = try await consume(backend)
    let bytes = TestImages.png(width: 2, height: 3)
    for number in 0..<1_000 {
      try folder.write(bytes, "burst/p\(number).png")
    }
    try await settle(backend, consumer)
    print("a burst of 1,000 files: \(consumer.events.all.count) events")
    XCTAssertEqual(consumer.events.resyncs, 0)
  }

  func testTheStreamFinishesWithTheBackend() async throws {
    var backend: FolderPhotoBackend? = backend()
    let events = try XCTUnwrap(backend?.events())
    _ = try await backend?.list(after: nil, limit: 1)
    let reader = Task {
      var count = 0
      for await _ in events { count += 1 }
      return count
    }
    backend = nil
    let count = await reader.value
    XCTAssertEqual(count, 0)
  }
}
