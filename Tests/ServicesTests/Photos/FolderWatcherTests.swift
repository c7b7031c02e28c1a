import Foundation
import Synchronization
import XCTest

@testable import Services

/// `FolderWatcher`: what inotify reports of a real folder, in batches.
final class FolderWatcherTests: XCTestCase {
  private var folder: TestFolder!

  override func setUpWithError() throws {
    folder = try TestFolder.make("folder-watcher")
  }

  override func tearDown() {
    folder.delete()
  }

  /// The events of one watcher, gathered as they come.
  final class Reports: Sendable {
    private let events = Mutex<[FolderWatcher.Event]>([])
    var all: [FolderWatcher.Event] { events.withLock { $0 } }
    var onEvent: @Sendable (FolderWatcher.Event) -> Void {
      { event in self.events.withLock { $0.append(event) } }
    }

    /// Every path of every `changed` batch.
    var paths: Set<String> {
      Set(
        all.flatMap { event -> [String] in
          if case .changed(let paths) = event { return paths }
          return []
        })
    }

    var batches: Int {
      all.filter {
        if case .changed = $0 { return true }
        return false
      }.count
    }
  }

  private func watcher(_ reports: Reports) throws -> FolderWatcher {
    let watcher = FolderWatcher(root: folder.path)
    try watcher.start(reports.onEvent)
    return watcher
  }

  func testReportsFilesCreatedWrittenAndDeleted() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "old.png")
    let reports = Reports()
    let watcher = try watcher(reports)
    try folder.write(TestImages.png(width: 2, height: 2), "new.png")
    try folder.write(TestImages.png(width: 3, height: 3), "old.png")
    await waitUntil("new.png and old.png") { reports.paths.isSuperset(of: ["new.png", "old.png"]) }
    try folder.remove("new.png")
    XCTAssertEqual(chmod(folder.absolute("old.png"), 0o600), 0)
    let count = reports.all.count
    await waitUntil("the deletion") { reports.all.count > count }
    XCTAssertEqual(reports.paths, ["new.png", "old.png"])
    XCTAssertFalse(reports.all.contains(.overflow))
    XCTAssertEqual(watcher.watchedFolders, 1)
  }

  func testEachBatchIsInPathOrderWithNoRepeats() async throws {
    let reports = Reports()
    let watcher = try watcher(reports)
    for name in ["b.png", "a.png", "B.png", "a.png"] {
      try folder.write(TestImages.png(width: 1, height: 1), name)
    }
    await waitUntil("three files") { reports.paths.count == 3 }
    for case .changed(let paths) in reports.all {
      XCTAssertEqual(paths, paths.sorted(by: PathOrder.precedes))
      XCTAssertEqual(Set(paths).count, paths.count)
    }
    watcher.stop()
  }

  func testANewFolderIsWatchedAndReportedWithWhatItHolds() async throws {
    let reports = Reports()
    let watcher = try watcher(reports)
    // Files written at once into a new folder: some before its watch is
    // added, which the folder's own report covers.
    try folder.makeFolder("new/deeper")
    for number in 0..<20 {
      try folder.write(TestImages.png(width: 1, height: 1), "new/deeper/p\(number).png")
    }
    await waitUntil("the new folder") { reports.paths.contains("new") }
    await waitUntil("two more folders watched") { watcher.watchedFolders == 3 }
    try folder.write(TestImages.png(width: 1, height: 1), "new/deeper/later.png")
    await waitUntil("a file written later") { reports.paths.contains("new/deeper/later.png") }
  }

  func testMovesAndRenamesReportBothPathsAndFollowTheFolder() async throws {
    let outside = try TestFolder.make("folder-watcher-outside")
    defer { outside.delete() }
    try outside.write(TestImages.png(width: 1, height: 1), "album/a.png")
    try folder.write(TestImages.png(width: 1, height: 1), "stay/b.png")
    let reports = Reports()
    let watcher = try watcher(reports)
    folder.move(outside.absolute("album"), to: folder.absolute("album"))
    folder.move(folder.absolute("stay"), to: folder.absolute("renamed"))
    await waitUntil("the moves") { reports.paths.isSuperset(of: ["album", "stay", "renamed"]) }
    // The renamed folder is watched under its new path, the moved-in one too.
    try folder.write(TestImages.png(width: 1, height: 1), "renamed/c.png")
    try folder.write(TestImages.png(width: 1, height: 1), "album/d.png")
    await waitUntil("files in both") {
      reports.paths.isSuperset(of: ["renamed/c.png", "album/d.png"])
    }
    XCTAssertFalse(reports.paths.contains("stay/c.png"))
    folder.move(folder.absolute("album"), to: outside.absolute("back"))
    await waitUntil("the move out") { watcher.watchedFolders == 2 }
    XCTAssertFalse(reports.all.contains(.overflow))
  }

  func testHiddenNamesAreLeftOut() async throws {
    let reports = Reports()
    let watcher = try watcher(reports)
    try folder.write(TestImages.png(width: 1, height: 1), ".hidden.png")
    try folder.write(TestImages.png(width: 1, height: 1), ".git/inside.png")
    try folder.write(TestImages.png(width: 1, height: 1), "marker.png")
    await waitUntil("the marker") { reports.paths.contains("marker.png") }
    XCTAssertEqual(reports.paths, ["marker.png"])
    watcher.stop()
  }

  func testABurstIsAFewBatches() async throws {
    let reports = Reports()
    let watcher = try watcher(reports)
    let bytes = TestImages.png(width: 1, height: 1)
    for number in 0..<1_000 {
      try folder.write(bytes, "p\(number).png")
    }
    await waitUntil("1,000 files") { reports.paths.count == 1_000 }
    print("a burst of 1,000 files: \(reports.batches) batches")
    XCTAssertLessThan(reports.batches, 200)
    watcher.stop()
  }

  func testAnOverflowOfTheKernelQueueIsReported() async throws {
    // The thread stops reading while the first report waits, so the
    // kernel's queue (16,384 events by default) overflows.
    let gate = Mutex(true)
    let reports = Reports()
    let watcher = FolderWatcher(root: folder.path)
    try watcher.start { event in
      while gate.withLock({ $0 }) { usleep(1_000) }
      reports.onEvent(event)
    }
    try folder.write([], "first.png")
    let limit =
      (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16_384
    try XCTSkipIf(limit > 100_000, "the queue is too large to overflow quickly")
    // Each `open(O_CREAT)` and `close` makes two events: twice the queue,
    // since the thread may have read a buffer of them before it blocked.
    for number in 0..<(limit + 1_000) {
      let descriptor = open(folder.absolute("f\(number)"), O_WRONLY | O_CREAT, 0o644)
      close(descriptor)
    }
    gate.withLock { $0 = false }
    await waitUntil("the overflow") { reports.all.contains(.overflow) }
    // Still watching, everything again.
    try folder.write([], "after.png")
    await waitUntil("a file after") { reports.paths.contains("after.png") }
    watcher.stop()
  }

  func testTheFolderDeletedEndsIt() async throws {
    try folder.write(TestImages.png(width: 1, height: 1), "sub/a.png")
    let reports = Reports()
    let watcher = try watcher(reports)
    folder.delete()
    await waitUntil("the end") { reports.all.last == .ended }
    XCTAssertEqual(watcher.watchedFolders, 0)
  }

  func testStopEndsTheThreadAndClosesItsDescriptors() async throws {
    let before = Self.inotifyDescriptors()
    let reports = Reports()
    var watcher: FolderWatcher? = try watcher(reports)
    let descriptors = Self.inotifyDescriptors().subtracting(before)
    XCTAssertEqual(descriptors.count, 1)
    try folder.write(TestImages.png(width: 1, height: 1), "a.png")
    await waitUntil("a.png") { reports.paths.contains("a.png") }
    watcher?.stop()
    watcher = nil
    // The thread holds the descriptor until it ends: closed, it has ended.
    await waitUntil("the descriptor closed") {
      Self.inotifyDescriptors().isDisjoint(with: descriptors)
    }
  }

  /// The process's open inotify descriptors.
  private static func inotifyDescriptors() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return Set(
      names.filter {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))
          == "anon_inode:inotify"
      })
  }

  func testAMissingFolderCannotBeWatched() {
    let watcher = FolderWatcher(root: folder.path + "/nope")
    XCTAssertThrowsError(try watcher.start { _ in }) { error in
      XCTAssertEqual(
        error as? PhotoFolderError, .cannotWatch(path: folder.path + "/nope", errno: ENOENT))
    }
  }
}
