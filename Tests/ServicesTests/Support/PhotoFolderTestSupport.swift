import Foundation
import Synchronization
import XCTest

@testable import Services

/// Waits until `condition` holds, looking every 20 ms, for at most `seconds`
/// (generous: the machine may be busy); a test failure when it never does.
@discardableResult
func waitUntil(
  _ what: @autoclosure () -> String, seconds: Double = 20, file: StaticString = #filePath,
  line: UInt = #line, _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  if try await condition() { return true }
  XCTFail("timed out waiting for \(what())", file: file, line: line)
  return false
}

/// A folder of a test, removed at the end: files written, moved and deleted
/// by relative path.
struct TestFolder {
  let path: String

  /// A new folder under the temporary directory, named after `label`.
  static func make(_ label: String) throws -> TestFolder {
    let path = FileManager.default.temporaryDirectory.path + "/catalogd-\(label)-\(UUID())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return TestFolder(path: path)
  }

  func absolute(_ relativePath: String) -> String { path + "/" + relativePath }

  func write(_ bytes: [UInt8], _ relativePath: String) throws {
    let target = absolute(relativePath)
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: target))
  }

  func makeFolder(_ relativePath: String) throws {
    try FileManager.default.createDirectory(
      atPath: absolute(relativePath), withIntermediateDirectories: true)
  }

  func remove(_ relativePath: String) throws {
    try FileManager.default.removeItem(atPath: absolute(relativePath))
  }

  /// `rename(2)`: atomic, as `mv` within one file system.
  func move(_ from: String, to: String) {
    XCTAssertEqual(rename(from, to), 0, "rename \(from) \(to): errno \(errno)")
  }

  func delete() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The events of one subscription to a backend, gathered as they come.
final class CollectedEvents: Sendable {
  private let events = Mutex<[PhotoFolderEvent]>([])
  private let reader = Mutex<Task<Void, Never>?>(nil)

  init(_ stream: AsyncStream<PhotoFolderEvent>) {
    let task = Task { [weak self] in
      for await event in stream {
        self?.events.withLock { $0.append(event) }
      }
    }
    reader.withLock { $0 = task }
  }

  deinit { reader.withLock { $0?.cancel() } }

  var all: [PhotoFolderEvent] { events.withLock { $0 } }

  /// Every change of every `changed` event, in order.
  var changes: [PhotoFolderChange] {
    all.flatMap { event -> [PhotoFolderChange] in
      if case .changed(let changes) = event { return changes }
      return []
    }
  }

  var resyncs: Int { all.filter { $0 == .resync }.count }

  /// The relative paths the changes name, in order.
  var changedPaths: [String] {
    changes.map { change in
      switch change {
      case .upserted(_, let path), .removed(_, let path): path
      }
    }
  }
}

/// A live feed's items as a consumer keeps them: a first listing, then every
/// event applied (a `resync` lists again), by the bytes of their paths.
struct FeedMirror: Equatable {
  var photos: [[UInt8]: Photo] = [:]

  init(_ items: [(photo: Photo, relativePath: String)]) {
    for (photo, path) in items { photos[Array(path.utf8)] = photo }
  }

  /// The whole live listing, paged with `list(after:limit:)`.
  static func listed(_ backend: FolderPhotoBackend, pageSize: Int = 7) async throws -> FeedMirror {
    var items: [(photo: Photo, relativePath: String)] = []
    var after: String?
    while true {
      let page = try await backend.list(after: after, limit: pageSize)
      items += page.items
      after = page.items.last?.relativePath
      if page.endReached { break }
    }
    return FeedMirror(items)
  }

  /// What a full scan of `folder` with a fresh index lists.
  static func scanned(_ folder: String) async throws -> FeedMirror {
    let snapshot = try await PhotoIndex(folder: folder, databasePath: nil).scan()
    return FeedMirror(
      snapshot.photos.map {
        (FolderPhotoBackend.photo($0, folder: snapshot.folder), $0.relativePath)
      })
  }

  /// This listing with `events` applied; a `resync` takes `reload` instead.
  func applying(_ events: [PhotoFolderEvent], reload: FeedMirror) -> FeedMirror {
    var mirror = self
    for event in events {
      switch event {
      case .resync:
        mirror = reload
      case .changed(let changes):
        for change in changes {
          switch change {
          case .upserted(let photo, let path): mirror.photos[Array(path.utf8)] = photo
          case .removed(let id, let path):
            XCTAssertEqual(mirror.photos[Array(path.utf8)]?.id ?? id, id)
            mirror.photos[Array(path.utf8)] = nil
          }
        }
      }
    }
    return mirror
  }

  var paths: [String] {
    photos.keys.map { String(decoding: $0, as: UTF8.self) }.sorted(by: PathOrder.precedes)
  }
}
