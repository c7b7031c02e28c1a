import Foundation
import Synchronization
import XCTest

@testable import Services

/// `PhotoIndex`: walking a folder, ordering, ids, and the SQLite cache that
/// spares a restart from reading the files again.
final class PhotoIndexTests: XCTestCase {
  private var root: String!
  private var folder: String { root + "/photos" }
  private var database: String { root + "/data/photos.sqlite" }

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.path + "/catalogd-photo-index-\(UUID())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: root)
  }

  /// Log lines a test collects.
  final class LogLines: Sendable {
    private let lines = Mutex<[(PhotoLogLevel, String, [String: String])]>([])
    var all: [(PhotoLogLevel, String, [String: String])] { lines.withLock { $0 } }
    var log: PhotoLog {
      { level, message, metadata in self.lines.withLock { $0.append((level, message, metadata)) } }
    }
    func paths(_ message: String) -> [String] {
      all.filter { $0.1 == message }.compactMap { $0.2["path"] }.sorted()
    }
  }

  private func write(_ bytes: [UInt8], _ relativePath: String) throws {
    let path = folder + "/" + relativePath
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  private func index(_ lines: LogLines = LogLines()) -> PhotoIndex {
    PhotoIndex(folder: folder, databasePath: database, log: lines.log)
  }

  func testListsImagesRecursivelyInByteOrderOfTheirPaths() async throws {
    for path in ["b.png", "B.png", "a.png", "a/x.png", "a-b.png", "é.png", "z/y/deep.gif", "Z.jpg"]
    {
      let bytes: [UInt8] =
        path.hasSuffix(".gif")
        ? TestImages.gif(width: 3, height: 4)
        : path.hasSuffix(".jpg")
          ? TestImages.jpeg(width: 5, height: 6) : TestImages.png(width: 1, height: 2)
      try write(bytes, path)
    }
    let snapshot = try await index().scan()
    XCTAssertEqual(
      snapshot.photos.map(\.relativePath),
      ["B.png", "Z.jpg", "a-b.png", "a.png", "a/x.png", "b.png", "z/y/deep.gif", "é.png"])
    // A restart takes the order from the cache, unsorted: the same.
    let restarted = try await index().scan()
    XCTAssertEqual(restarted.report.read, 0)
    XCTAssertEqual(restarted.photos.map(\.relativePath), snapshot.photos.map(\.relativePath))
    let deep = try XCTUnwrap(snapshot.photos.first { $0.relativePath == "z/y/deep.gif" })
    XCTAssertEqual([deep.width, deep.height], [3, 4])
    XCTAssertEqual(deep.format, .gif)
  }

  func testIdsAreAHashOfThePathAndTheSameInANewIndex() async throws {
    try write(TestImages.png(width: 1, height: 1), "one.png")
    try write(TestImages.png(width: 1, height: 1), "sub/two.png")
    let first = try await index().scan()
    let second = try await index().scan()
    XCTAssertEqual(first.photos.map(\.id), second.photos.map(\.id))
    XCTAssertEqual(first.photos.map(\.id), [PhotoID.make("one.png"), PhotoID.make("sub/two.png")])
    // FNV-1a 64 of "one.png", fixed here so that ids never change by accident.
    XCTAssertEqual(PhotoID.make(""), "cbf29ce484222325")
    XCTAssertEqual(PhotoID.make("a"), "af63dc4c8601ec8c")
    XCTAssertEqual(first.photo(id: PhotoID.make("sub/two.png"))?.relativePath, "sub/two.png")
    XCTAssertNil(first.photo(id: "0000000000000000"))
  }

  func testSkipsHiddenOtherAndBrokenFilesAndLogsTheLastTwo() async throws {
    try write(TestImages.png(width: 2, height: 2), "good.png")
    try write(TestImages.png(width: 2, height: 2), ".hidden.png")
    try write(TestImages.png(width: 2, height: 2), ".git/inside.png")
    try write(Array("just text".utf8), "notes.txt")
    try write(Array(TestImages.png(width: 2, height: 2).prefix(20)), "cut.png")
    try write([], "empty.jpg")
    let lines = LogLines()
    let snapshot = try await index(lines).scan()
    XCTAssertEqual(snapshot.photos.map(\.relativePath), ["good.png"])
    XCTAssertEqual(lines.paths("photo skipped"), ["cut.png", "empty.jpg", "notes.txt"])
    let reasons = Dictionary(
      uniqueKeysWithValues: lines.all.filter { $0.1 == "photo skipped" }.map {
        ($0.2["path"] ?? "", $0.2["reason"] ?? "")
      })
    XCTAssertEqual(reasons["cut.png"], "truncated header")
    XCTAssertEqual(reasons["notes.txt"], "not a JPEG, PNG, GIF or WebP file")
    XCTAssertEqual(snapshot.report.files, 4)
    XCTAssertEqual(snapshot.report.skipped, 3)
    XCTAssertTrue(lines.all.contains { $0.1 == "photos indexed" && $0.2["images"] == "1" })
  }

  func testFollowsLinksButWalksALoopOnce() async throws {
    try write(TestImages.png(width: 2, height: 2), "real/a.png")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/real/loop", withDestinationPath: "..")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/alias.png", withDestinationPath: "real/a.png")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/dangling.png", withDestinationPath: "nowhere.png")
    let lines = LogLines()
    let snapshot = try await index(lines).scan()
    XCTAssertEqual(snapshot.photos.map(\.relativePath), ["alias.png", "real/a.png"])
    XCTAssertEqual(lines.paths("photo skipped"), ["dangling.png", "real/loop"])
  }

  func testTwoNamesOfOneCanonicalFormAreTwoPhotos() async throws {
    // "é" as one code point and as "e" with a combining accent: two files,
    // which Swift's String == would take for one (the index keyed its
    // records by String, so one of the two was lost).
    try write(TestImages.png(width: 1, height: 1), "caf\u{E9}.png")
    try write(TestImages.png(width: 2, height: 2), "cafe\u{301}.png")
    let first = try await index().scan()
    XCTAssertEqual(
      first.photos.map { Array($0.relativePath.utf8) },
      [Array("cafe\u{301}.png".utf8), Array("caf\u{E9}.png".utf8)])
    XCTAssertEqual(first.photos.map(\.width), [2, 1])
    let restarted = try await index().scan()
    XCTAssertEqual(restarted.report.read, 0)
    XCTAssertEqual(restarted.photos.map(\.id), first.photos.map(\.id))
    XCTAssertEqual(restarted.photos.map(\.width), [2, 1])
  }

  func testANameThatIsNotUTF8IsSkippedWithALogLine() async throws {
    try write(TestImages.png(width: 2, height: 2), "fine.png")
    // "bad-\xFF.png": a byte that UTF-8 never uses.
    let path: [CChar] =
      Array((folder + "/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)]
      + Array(".png".utf8CString)
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
    XCTAssertGreaterThanOrEqual(descriptor, 0)
    close(descriptor)
    let lines = LogLines()
    let snapshot = try await index(lines).scan()
    XCTAssertEqual(snapshot.photos.map(\.relativePath), ["fine.png"])
    XCTAssertEqual(
      lines.all.filter { $0.1 == "photo skipped" }.map { $0.2["reason"] }, ["the name is not UTF-8"]
    )
  }

  func testARestartReadsNoFileAndAChangeIsReadAgain() async throws {
    for number in 0..<20 {
      try write(TestImages.png(width: number + 1, height: 1), "p\(number).png")
    }
    try write(Array("x".utf8), "broken.png")
    let first = try await index().scan()
    XCTAssertEqual(first.report.read, 21)
    XCTAssertEqual(first.photos.count, 20)

    // A new process: the cache answers for every file, broken ones included.
    let lines = LogLines()
    let restarted = index(lines)
    let second = try await restarted.scan()
    XCTAssertEqual(second.report.read, 0)
    XCTAssertEqual(second.report.skipped, 1)
    XCTAssertEqual(second.photos.map(\.id), first.photos.map(\.id))
    XCTAssertEqual(lines.paths("photo skipped"), [], "known skips are not logged again")

    // Change one (another size), delete one, add one.
    try write(
      TestImages.png(
        width: 99, height: 98, extra: [TestImages.pngText("Author", Array("Bo".utf8))]), "p3.png")
    try FileManager.default.removeItem(atPath: folder + "/p4.png")
    try write(TestImages.gif(width: 7, height: 7), "new.gif")
    let third = try await restarted.scan()
    XCTAssertEqual(third.report.read, 2)
    XCTAssertEqual(third.report.removed, 1)
    XCTAssertEqual(third.photos.count, 20)
    let changed = try XCTUnwrap(third.photo(id: PhotoID.make("p3.png")))
    XCTAssertEqual([changed.width, changed.height], [99, 98])
    XCTAssertEqual(changed.author, "Bo")
    XCTAssertNil(third.photo(id: PhotoID.make("p4.png")))

    // And the next process sees the same, reading nothing.
    let fourth = try await index().scan()
    XCTAssertEqual(fourth.report.read, 0)
    XCTAssertEqual(fourth.photos.map(\.relativePath), third.photos.map(\.relativePath))
    XCTAssertEqual(fourth.photo(id: PhotoID.make("p3.png"))?.author, "Bo")
  }

  func testAnUnreadableCacheOnlyCostsAFullRead() async throws {
    try write(TestImages.png(width: 2, height: 2), "a.png")
    try FileManager.default.createDirectory(
      atPath: root + "/data", withIntermediateDirectories: true)
    try Data(
      "this is not a database, not at all, not even close..............................".utf8
    )
    .write(to: URL(fileURLWithPath: database))
    let lines = LogLines()
    let snapshot = try await index(lines).scan()
    XCTAssertEqual(snapshot.photos.count, 1)
    XCTAssertTrue(lines.all.contains { $0.0 == .warn })
  }

  func testWorksWithoutACache() async throws {
    try write(TestImages.png(width: 2, height: 2), "a.png")
    let index = PhotoIndex(folder: folder, databasePath: nil)
    let count = try await index.scan().photos.count
    XCTAssertEqual(count, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: database))
  }

  func testAMissingFolderThrows() async {
    let index = PhotoIndex(folder: root + "/nope", databasePath: database)
    do {
      _ = try await index.scan()
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(error as? PhotoFolderError, .cannotOpen(path: root + "/nope", errno: ENOENT))
    }
  }

  func testCallersDuringAScanShareIt() async throws {
    for number in 0..<300 {
      try write(TestImages.png(width: 1, height: 1), "p\(number).png")
    }
    let lines = LogLines()
    let index = index(lines)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask { try await index.scan().photos.count }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(counts, [Int](repeating: 300, count: 8))
    XCTAssertLessThan(lines.all.filter { $0.1 == "photos indexed" }.count, 8)
  }

  func testSnapshotReusesARecentScan() async throws {
    try write(TestImages.png(width: 2, height: 2), "a.png")
    let index = index()
    let first = try await index.snapshot(maxAge: .seconds(60))
    try write(TestImages.png(width: 2, height: 2), "b.png")
    let reused = try await index.snapshot(maxAge: .seconds(60))
    XCTAssertEqual(reused.photos.count, 1)
    let fresh = try await index.snapshot(maxAge: .zero)
    XCTAssertEqual(fresh.photos.count, 2)
    XCTAssertEqual(first.photos.count, 1)
  }

  func testACancelledCallerStopsWaitingButTheScanFinishes() async throws {
    for number in 0..<2_000 {
      try write(TestImages.png(width: 1, height: 1), "p\(number).png")
    }
    let index = index()
    let waiter = Task { try await index.scan() }
    waiter.cancel()
    let result = await waiter.result
    if case .success(let snapshot) = result {
      XCTAssertEqual(snapshot.photos.count, 2_000)  // it finished before the cancel
    } else if case .failure(let error) = result {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    let after = try await index.scan()
    XCTAssertEqual(after.photos.count, 2_000)
  }
}
