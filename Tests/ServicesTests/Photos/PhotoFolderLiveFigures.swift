import Foundation
import Synchronization
import XCTest

@testable import Services

/// Figures of a folder followed live, printed, not asserted: run with
/// `CATALOGD_PHOTO_LIVE_FIGURES=100000` (the number of files), in a release
/// build for figures worth quoting.
final class PhotoFolderLiveFigures: XCTestCase {
  func testLatencyOfAFileInALargeFolder() async throws {
    let count = Int(ProcessInfo.processInfo.environment["CATALOGD_PHOTO_LIVE_FIGURES"] ?? "") ?? 0
    try XCTSkipUnless(count > 0, "set CATALOGD_PHOTO_LIVE_FIGURES to the number of files")
    let folder = try TestFolder.make("photo-live-figures")
    let data = try TestFolder.make("photo-live-figures-data")
    defer {
      folder.delete()
      data.delete()
    }
    var started = monotonicNanoseconds()
    let bytes = TestImages.png(width: 4, height: 3)
    for index in 0..<count {
      if index % 1_000 == 0 { try folder.makeFolder("roll-\(index / 1_000)") }
      Self.write(bytes, folder.absolute("roll-\(index / 1_000)/IMG_\(index).png"))
    }
    print("wrote \(count) files in \(Self.milliseconds(since: started)) ms")
    let rssBefore = Self.residentKiB()
    let lines = PhotoIndexTests.LogLines()
    let backend = FolderPhotoBackend(
      folder: folder.path, databasePath: data.absolute("photos.sqlite"), log: lines.log)
    let stream = backend.events()
    let events = CollectedEvents(backend.events())
    // When each path's change arrived.
    let arrivals = Arrivals()
    let reader = Task {
      for await case .changed(let changes) in stream {
        let now = monotonicNanoseconds()
        arrivals.times.withLock { times in
          for case .upserted(_, let path) in changes { times[path] = now }
        }
      }
    }
    defer { reader.cancel() }
    started = monotonicNanoseconds()
    _ = try await backend.list(after: nil, limit: 1)
    print(
      "live after \(Self.milliseconds(since: started)) ms (watches, then a cold scan);",
      "\(backend.watchedFolders) folders watched;",
      "resident memory +\((Self.residentKiB() - rssBefore) / 1_024) MiB")
    var latencies: [Double] = []
    for round in 0..<30 {
      let path = "roll-\(round % 100)/new-\(round).png"
      started = monotonicNanoseconds()
      Self.write(bytes, folder.absolute(path))
      await waitUntil("the event of \(path)") { arrivals.times.withLock { $0[path] != nil } }
      let arrived = arrivals.times.withLock { $0[path] } ?? started
      latencies.append((Double(arrived - started) / 100_000).rounded() / 10)
      try await Task.sleep(for: .milliseconds(50))  // apart, so that each is a batch of its own
    }
    latencies.sort()
    let applied = lines.all.filter { $0.1 == "photos updated" }.compactMap {
      Double($0.2["seconds"] ?? "")
    }.map { $0 * 1_000 }.sorted()
    print(
      "write to event, 30 files one at a time: p50 \(latencies[15]) ms,",
      "p90 \(latencies[27]) ms, max \(latencies[29]) ms; a batch applied in",
      "p50 \(applied[applied.count / 2]) ms, max \(applied.last ?? 0) ms")
    started = monotonicNanoseconds()
    let before = events.all.count
    for index in 0..<1_000 {
      if index == 0 { try folder.makeFolder("burst") }
      Self.write(bytes, folder.absolute("burst/b\(index).png"))
    }
    let written = Self.milliseconds(since: started)
    func burst() -> [UInt64] {
      arrivals.times.withLock { $0.filter { $0.key.hasPrefix("burst/") }.map(\.value) }
    }
    await waitUntil("all of the burst") { burst().count == 1_000 }
    let last = burst().max() ?? started
    print(
      "1,000 files written in \(written) ms: all their events after",
      "\((Double(last - started) / 100_000).rounded() / 10) ms,",
      "in \(events.all.count - before) events;",
      "resident memory +\((Self.residentKiB() - rssBefore) / 1_024) MiB")
  }

  /// When the change of each path arrived.
  final class Arrivals: Sendable {
    let times = Mutex<[String: UInt64]>([:])
  }

  private static func write(_ bytes: [UInt8], _ path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    bytes.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }

  private static func milliseconds(since start: UInt64) -> Double {
    (Double(monotonicNanoseconds() - start) / 100_000).rounded() / 10
  }

  /// The process's resident memory (`VmRSS`), in KiB.
  private static func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
