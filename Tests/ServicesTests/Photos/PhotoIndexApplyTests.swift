import Foundation
import XCTest

@testable import Services

/// `PhotoIndex.apply(changedPaths:)`, without a watcher: the paths a watcher
/// would report, applied, make the snapshot a full scan makes.
final class PhotoIndexApplyTests: XCTestCase {
  private var folder: TestFolder!
  private var data: TestFolder!

  override func setUpWithError() throws {
    folder = try TestFolder.make("photo-apply")
    data = try TestFolder.make("photo-apply-data")
  }

  override func tearDown() {
    folder.delete()
    data.delete()
  }

  private func index() -> PhotoIndex {
    PhotoIndex(folder: folder.path, databasePath: data.absolute("photos.sqlite"))
  }

  /// What a fresh index without a cache lists.
  private func scanned() async throws -> [IndexedPhoto] {
    try await PhotoIndex(folder: folder.path, databasePath: nil).scan().photos
  }

  func testChangesOfFilesAndFolders() async throws {
    for number in 0..<10 {
      try folder.write(TestImages.png(width: number + 1, height: 1), "p\(number).png")
    }
    try folder.write(TestImages.png(width: 1, height: 1), "old/a.png")
    try folder.write(TestImages.png(width: 1, height: 1), "old/b/c.png")
    let index = index()
    let before = try await index.scan()
    try folder.remove("p3.png")
    try folder.write(TestImages.gif(width: 50, height: 60), "p5.png")
    try folder.write(TestImages.png(width: 7, height: 7), "new/x.png")
    try folder.write(TestImages.png(width: 8, height: 8), "new/y/z.png")
    try folder.remove("old")
    try folder.write(Array("text".utf8), "p7.png")
    let update = try await index.apply(changedPaths: [
      "p3.png", "p5.png", "new", "old", "p7.png", "p5.png", "nothing.png",
    ])
    let fresh = try await scanned()
    XCTAssertEqual(update.snapshot.photos, fresh)
    XCTAssertEqual(
      update.changes.map(\.relativePath),
      [
        "new/x.png", "new/y/z.png", "old/a.png", "old/b/c.png", "p3.png", "p5.png", "p7.png",
      ])
    XCTAssertEqual(update.changes.filter { $0.after == nil }.count, 4)
    XCTAssertEqual(
      update.changes.first { $0.relativePath == "p5.png" }?.before,
      before.photo(id: PhotoID.make("p5.png")))
    XCTAssertEqual(update.snapshot.photo(id: PhotoID.make("new/y/z.png"))?.width, 8)
    XCTAssertNil(update.snapshot.photo(id: PhotoID.make("old/a.png")))
    // The cache: a new process reads nothing and lists the same.
    let restarted = try await self.index().scan()
    XCTAssertEqual(restarted.report.read, 0)
    XCTAssertEqual(restarted.photos, fresh)
  }

  func testPathsUnchangedChangeNothingAndReadNothing() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    try folder.write(TestImages.png(width: 1, height: 1), "sub/b.png")
    let lines = PhotoIndexTests.LogLines()
    let index = PhotoIndex(
      folder: folder.path, databasePath: data.absolute("photos.sqlite"), log: lines.log)
    let before = try await index.scan()
    let update = try await index.apply(changedPaths: ["a.png", "sub", "", ".hidden", "../x"])
    XCTAssertEqual(update.changes, [])
    XCTAssertEqual(update.snapshot.photos, before.photos)
    XCTAssertFalse(lines.all.contains { $0.1 == "photos updated" })
  }

  func testAFileOnlyTouchedIsReadAgainButNoChange() async throws {
    let bytes = TestImages.png(width: 3, height: 3)
    try folder.write(bytes, "a.png")
    let index = index()
    _ = try await index.scan()
    try folder.write(bytes, "a.png")
    var times = [timespec(tv_sec: 1_000, tv_nsec: 0), timespec(tv_sec: 1_000, tv_nsec: 0)]
    XCTAssertEqual(utimensat(AT_FDCWD, folder.absolute("a.png"), &times, 0), 0)
    let update = try await index.apply(changedPaths: ["a.png"])
    XCTAssertEqual(update.changes, [])
    let restarted = try await self.index().scan()
    XCTAssertEqual(restarted.report.read, 0, "the new time is cached")
  }

  func testWithoutAScanFirstItScans() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    let update = try await index().apply(changedPaths: ["a.png"])
    let fresh = try await scanned()
    XCTAssertEqual(update.changes.map(\.after), fresh.map { Optional($0) })
  }

  func testNamesOfOneCanonicalFormAreTwoPaths() async throws {
    let index = index()
    _ = try await index.scan()
    try folder.write(TestImages.png(width: 1, height: 1), "caf\u{E9}.png")
    try folder.write(TestImages.png(width: 2, height: 2), "cafe\u{301}.png")
    let update = try await index.apply(changedPaths: ["caf\u{E9}.png", "cafe\u{301}.png"])
    XCTAssertEqual(update.changes.count, 2)
    let fresh = try await scanned()
    XCTAssertEqual(update.snapshot.photos, fresh)
  }

  func testAManyChangesAtOnceMatchAScan() async throws {
    for number in 0..<500 {
      try folder.write(TestImages.png(width: 1, height: 1), "f\(number % 7)/p\(number).png")
    }
    let index = index()
    _ = try await index.scan()
    var paths: [String] = []
    for number in stride(from: 0, to: 500, by: 3) {
      let path = "f\(number % 7)/p\(number).png"
      if number % 2 == 0 {
        try folder.remove(path)
      } else {
        try folder.write(TestImages.png(width: 2, height: number), path)
      }
      paths.append(path)
    }
    for number in 0..<300 {
      try folder.write(TestImages.gif(width: 3, height: 3), "g/q\(number).gif")
      paths.append("g/q\(number).gif")
    }
    let update = try await index.apply(changedPaths: paths.shuffled())
    let fresh = try await scanned()
    XCTAssertEqual(update.snapshot.photos, fresh)
    XCTAssertEqual(update.changes.count, 167 + 300)
  }

  func testMergedKeepsTheOrder() {
    let elements = ["a", "b", "c/x", "d", "f"]
    XCTAssertEqual(
      PathOrder.merged(elements, removing: ["b", "d", "zz"], inserting: ["a0", "d", "e"]) { $0 },
      ["a", "a0", "c/x", "d", "e", "f"])
    XCTAssertEqual(PathOrder.merged([], removing: ["x"], inserting: ["y"]) { $0 }, ["y"])
    XCTAssertEqual(PathOrder.merged(elements, removing: [], inserting: []) { $0 }, elements)
    XCTAssertEqual(
      PathOrder.firstPosition(in: elements, notBefore: "c/x", after: true) { $0 }, 3)
    XCTAssertTrue(PathOrder.isWithin("c/x", folder: "c"))
    XCTAssertFalse(PathOrder.isWithin("c-x", folder: "c"))
    XCTAssertTrue(PathOrder.isWithin("c", folder: "c"))
    XCTAssertFalse(PathOrder.isWithin("cx/y", folder: "c"))
  }
}
