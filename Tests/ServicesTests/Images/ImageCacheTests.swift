import Foundation
import Synchronization
import XCTest

@testable import Services

/// `ImageCache`: bounded in bytes, least recently used first out, atomic
/// files, one download for concurrent requests, kept across restarts.
final class ImageCacheTests: XCTestCase {
  private var directory: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.path + "/catalogd-image-cache-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A download of `size` bytes that starts like a PNG, counting its calls.
  final class Source: Sendable {
    let calls = Atomic<Int>(0)
    let delay: Duration

    init(delay: Duration = .zero) { self.delay = delay }

    func download(size: Int) -> @Sendable () async throws -> ImageCache.Download {
      { [self] in
        calls.add(1, ordering: .sequentiallyConsistent)
        if delay > .zero { try await Task.sleep(for: delay) }
        let png = TestImages.png(width: 1, height: 1)
        return ImageCache.Download(
          bytes: png + [UInt8](repeating: 7, count: max(0, size - png.count)), format: .png)
      }
    }

    var count: Int { calls.load(ordering: .sequentiallyConsistent) }
  }

  private func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  func testAMissThenAHit() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 10_000)
    let source = Source()
    let first = try await cache.image(key: "a", download: source.download(size: 500))
    XCTAssertFalse(first.cached)
    XCTAssertEqual(first.bytes, 500)
    XCTAssertEqual(first.format, .png)
    XCTAssertEqual(first.path, directory + "/" + PhotoID.make("a") + ".png")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first.path)).count, 500)
    let second = try await cache.image(key: "a", download: source.download(size: 500))
    XCTAssertEqual(
      second, ImageFile(path: first.path, format: .png, bytes: 500, cached: true))
    XCTAssertEqual(source.count, 1)
    XCTAssertEqual(try files(), [PhotoID.make("a") + ".png"], "no temporary file is left")
  }

  func testTheLeastRecentlyUsedGoFirst() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 2_500)
    let source = Source()
    _ = try await cache.image(key: "a", download: source.download(size: 1_000))
    _ = try await cache.image(key: "b", download: source.download(size: 1_000))
    // a is now newer than b.
    _ = try await cache.image(key: "a", download: source.download(size: 1_000))
    _ = try await cache.image(key: "c", download: source.download(size: 1_000))
    XCTAssertEqual(try files(), [PhotoID.make("a") + ".png", PhotoID.make("c") + ".png"].sorted())
    let size = await cache.size
    XCTAssertEqual(size, 2_000)
    XCTAssertEqual(source.count, 3)
    // b comes back by downloading again, and pushes out a, the oldest now.
    let b = try await cache.image(key: "b", download: source.download(size: 1_000))
    XCTAssertFalse(b.cached)
    XCTAssertEqual(try files(), [PhotoID.make("b") + ".png", PhotoID.make("c") + ".png"].sorted())
  }

  func testAnImageLargerThanTheLimitIsServedThenEvicted() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 100)
    let source = Source()
    let big = try await cache.image(key: "big", download: source.download(size: 5_000))
    XCTAssertTrue(FileManager.default.fileExists(atPath: big.path))
    _ = try await cache.image(key: "next", download: source.download(size: 80))
    XCTAssertFalse(FileManager.default.fileExists(atPath: big.path))
    let size = await cache.size
    XCTAssertEqual(size, 80)
  }

  func testConcurrentRequestsShareOneDownload() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 1 << 20)
    let source = Source(delay: .milliseconds(200))
    let results = try await withThrowingTaskGroup(of: ImageFile.self) { group in
      for _ in 0..<10 {
        group.addTask { try await cache.image(key: "same", download: source.download(size: 300)) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    XCTAssertEqual(source.count, 1)
    XCTAssertEqual(Set(results.map(\.path)).count, 1)
  }

  func testACancelledWaiterLeavesTheDownloadToTheOthers() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 1 << 20)
    let source = Source(delay: .milliseconds(300))
    let cancelled = Task { try await cache.image(key: "k", download: source.download(size: 300)) }
    try await Task.sleep(for: .milliseconds(50))
    let patient = Task { try await cache.image(key: "k", download: source.download(size: 300)) }
    cancelled.cancel()
    let outcome = await cancelled.result
    XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0 is CancellationError) }
    let image = try await patient.value
    XCTAssertFalse(image.cached)
    XCTAssertEqual(source.count, 1)
  }

  func testAFailedDownloadIsTriedAgainAndStoresNothing() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 1 << 20)
    let failing: @Sendable () async throws -> ImageCache.Download = {
      throw UpstreamFailure.unavailable(service: "photos", reason: "down")
    }
    do {
      _ = try await cache.image(key: "x", download: failing)
      XCTFail("expected an error")
    } catch {
      XCTAssertEqual(error as? UpstreamFailure, .unavailable(service: "photos", reason: "down"))
    }
    try await Task.sleep(for: .milliseconds(20))
    let image = try await cache.image(key: "x", download: Source().download(size: 10))
    XCTAssertFalse(image.cached)
  }

  func testARestartKeepsTheFilesAndTheirOrder() async throws {
    let source = Source()
    do {
      let cache = ImageCache(directory: directory, limitBytes: 2_500)
      _ = try await cache.image(key: "old", download: source.download(size: 1_000))
      try await Task.sleep(for: .milliseconds(20))
      _ = try await cache.image(key: "new", download: source.download(size: 1_000))
    }
    // A crash left a temporary file, long ago.
    let leftover = directory + "/.tmp-x.png-1-2"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: leftover))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -7_200)], ofItemAtPath: leftover)
    let restarted = ImageCache(directory: directory, limitBytes: 2_500)
    let size = await restarted.size
    XCTAssertEqual(size, 2_000)
    XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
    let hit = try await restarted.image(key: "new", download: source.download(size: 1_000))
    XCTAssertTrue(hit.cached)
    _ = try await restarted.image(key: "third", download: source.download(size: 1_000))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory + "/" + PhotoID.make("old") + ".png"))
    XCTAssertEqual(source.count, 3)
  }

  func testAFileRemovedBehindItsBackIsDownloadedAgain() async throws {
    let cache = ImageCache(directory: directory, limitBytes: 1 << 20)
    let source = Source()
    let first = try await cache.image(key: "a", download: source.download(size: 100))
    try FileManager.default.removeItem(atPath: first.path)
    let again = try await cache.image(key: "a", download: source.download(size: 100))
    XCTAssertFalse(again.cached)
    XCTAssertTrue(FileManager.default.fileExists(atPath: again.path))
    XCTAssertEqual(source.count, 2)
  }

  func testARestartWithALowerLimitEvictsDownToIt() async throws {
    let source = Source()
    do {
      let cache = ImageCache(directory: directory, limitBytes: 10_000)
      for key in ["a", "b", "c", "d"] {
        _ = try await cache.image(key: key, download: source.download(size: 1_000))
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    let smaller = ImageCache(directory: directory, limitBytes: 2_000)
    let size = await smaller.size
    XCTAssertEqual(size, 2_000)
    XCTAssertEqual(try files(), ["c", "d"].map { PhotoID.make($0) + ".png" }.sorted())
  }

  func testTheFormerPhotoCacheIsAdopted() async throws {
    let former = directory + "-former"
    defer { try? FileManager.default.removeItem(atPath: former) }
    do {
      let old = ImageCache(directory: former, limitBytes: 10_000)
      _ = try await old.image(key: "x", download: Source().download(size: 300))
    }
    let cache = ImageCache(directory: directory, limitBytes: 10_000, formerDirectory: former)
    let hit = try await cache.image(key: "x", download: Source().download(size: 300))
    XCTAssertTrue(hit.cached)
    XCTAssertEqual(hit.path, directory + "/" + PhotoID.make("x") + ".png")
    XCTAssertFalse(FileManager.default.fileExists(atPath: former))
  }

  func testDownloadsAreCappedAtTheLimitAndAFixedMaximum() {
    XCTAssertEqual(ImageCache(directory: directory, limitBytes: 1_000).maxDownloadBytes, 1_000)
    XCTAssertEqual(
      ImageCache(directory: directory, limitBytes: 1 << 40).maxDownloadBytes,
      ImageCache.maxImageBytes)
  }

  func testAFileThatCannotBeWrittenLeavesNothing() async throws {
    // The cache's folder is a file: nothing can be written under it.
    try Data([1]).write(to: URL(fileURLWithPath: directory))
    let cache = ImageCache(directory: directory + "/sub", limitBytes: 10_000)
    let error = await thrownError {
      try await cache.image(key: "a", download: Source().download(size: 100))
    }
    XCTAssertTrue(error is PhotoFolderError, "\(String(describing: error))")
    let size = await cache.size
    XCTAssertEqual(size, 0)
  }
}
