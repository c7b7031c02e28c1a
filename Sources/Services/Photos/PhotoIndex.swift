import Glibc

/// The images of one folder, found by walking it and reading their headers,
/// with the result cached in SQLite by path, size and modification time: a
/// later scan (in this process or the next) only `stat`s the files it knows
/// and reads the new and changed ones.
///
/// A scan runs on a thread of its own, never on Swift's cooperative pool, and
/// callers that ask while one runs share it. Nothing happens until the first
/// call: the daemon starts without touching the folder.
public actor PhotoIndex {
  /// The folder, absolute.
  public nonisolated let folder: String
  /// The cache on disk; nil keeps the index in memory only.
  private let store: PhotoIndexStore?
  private let log: PhotoLog
  /// What is known of each file, by relative path: from the store at the
  /// first scan, then from the last scan.
  private var known: [String: PhotoFileRecord]?
  /// The last scan's result.
  private var latest: PhotoIndexSnapshot?
  /// The scan under way, which callers join.
  private var running: SharedTask<PhotoIndexSnapshot>?

  /// Skipped files logged one by one per scan; the rest are counted.
  static let maxSkipLines = 100

  /// - Parameters:
  ///   - folder: the folder of images (made absolute against the working directory).
  ///   - databasePath: the cache file (`<data-dir>/photos.sqlite`); nil for none.
  public init(folder: String, databasePath: String?, log: @escaping PhotoLog = { _, _, _ in }) {
    self.folder = PhotoFiles.absolute(folder)
    self.store = databasePath.map(PhotoIndexStore.init(path:))
    self.log = log
  }

  /// The last scan's result when it started at most `maxAge` ago, else a new scan's.
  /// - Throws: `PhotoFolderError.cannotOpen` when the folder cannot be read.
  public func snapshot(maxAge: Duration) async throws -> PhotoIndexSnapshot {
    if let latest, ContinuousClock.now - latest.taken <= maxAge {
      return latest
    }
    return try await scan()
  }

  /// A new scan's result (joining the one under way, if any).
  public func scan() async throws -> PhotoIndexSnapshot {
    if let running, !running.isFinished {
      return try await running.value()
    }
    let task = SharedTask { [self] in try await self.performScan() }
    running = task
    return try await task.value()
  }

  private func performScan() async throws -> PhotoIndexSnapshot {
    let started = ContinuousClock.now
    let (folder, log) = (folder, log)
    // At the first scan, the cache loads on its own thread while the folder
    // is walked on another.
    var loading: Task<PhotoIndexStore.Contents, Never>?
    if known == nil, let store {
      loading = Task {
        do {
          return try await store.load(folder: folder)
        } catch {
          log(.warn, "photo index cache unreadable; reading every file", ["error": "\(error)"])
          return PhotoIndexStore.Contents()
        }
      }
    }
    let walk = try await Self.onOwnThread { () throws(PhotoFolderError) in
      try PhotoFolderWalker(root: folder).walk()
    }
    let loaded = await loading?.value
    let known = loaded?.records ?? self.known ?? [:]
    let outcome = try await Self.onOwnThread { () throws(PhotoFolderError) in
      Self.read(walk, folder: folder, known: known, log: log)
    }
    if let store, !outcome.changed.isEmpty || !outcome.removed.isEmpty {
      do {
        try await store.save(folder: folder, changed: outcome.changed, removed: outcome.removed)
      } catch {
        log(.warn, "photo index cache not saved", ["error": "\(error)"])
      }
    }
    var report = outcome.report
    report.seconds = ((ContinuousClock.now - started) / .milliseconds(1)).rounded() / 1_000
    let snapshot: PhotoIndexSnapshot
    let unchanged = outcome.changed.isEmpty && outcome.removed.isEmpty
    if let latest, unchanged {
      // The same files as last time: the same photos, in the same order.
      snapshot = latest.renewed(taken: started, report: report)
    } else {
      // The cache lists its files in path order: when they are all there
      // unchanged, that order needs no sorting.
      snapshot = PhotoIndexSnapshot(
        folder: folder, records: outcome.records, sortedPaths: unchanged ? loaded?.paths : nil,
        taken: started, report: report)
    }
    self.known = outcome.records
    latest = snapshot
    // A scan that changed nothing is routine (page 1 asks for one): debug only.
    let changed = report.read > 0 || report.removed > 0
    log(
      changed ? .info : .debug, "photos indexed",
      [
        "folder": folder, "images": String(snapshot.photos.count), "files": String(report.files),
        "read": String(report.read), "skipped": String(report.skipped),
        "removed": String(report.removed), "seconds": String(report.seconds),
      ])
    return snapshot
  }

  /// What one walk found and read.
  struct WalkOutcome: Sendable {
    var records: [String: PhotoFileRecord] = [:]
    var changed: [(String, PhotoFileRecord)] = []
    var removed: [String] = []
    var report = PhotoScanReport()
  }

  /// Reads the headers of the files of `walk` that `known` does not describe
  /// as they are now, and logs what was skipped. Blocking: runs on a thread
  /// of its own.
  static func read(
    _ walk: PhotoFolderWalker.Walk, folder: String, known: [String: PhotoFileRecord],
    log: PhotoLog
  ) -> WalkOutcome {
    var outcome = WalkOutcome()
    var skipLines = 0
    func skipped(_ path: String, _ reason: String) {
      outcome.report.skipped += 1
      skipLines += 1
      if skipLines <= maxSkipLines {
        log(.info, "photo skipped", ["path": path, "reason": reason])
      }
    }
    for (path, reason) in walk.skipped {
      skipped(path, reason)
    }
    let files = walk.files
    outcome.report.files = files.count
    // Start from what is known and change only what differs: a folder that
    // did not change costs one lookup per file.
    outcome.records = known
    var unknown: [PhotoFolderWalker.File] = []
    var matched = 0
    for file in files {
      if let record = known[file.relativePath] {
        matched += 1
        if record.matches(size: file.size, modified: file.modified) {
          if case .skipped = record.outcome { outcome.report.skipped += 1 }
          continue
        }
      }
      unknown.append(file)
    }
    if matched < known.count {
      // Some known files are gone: find which.
      let present = Set(files.lazy.map(\.relativePath))
      for path in known.keys where !present.contains(path) {
        outcome.removed.append(path)
        outcome.records[path] = nil
      }
    }
    outcome.report.removed = outcome.removed.count
    let headers = ParallelHeaderReader.read(unknown.map { folder + "/" + $0.relativePath })
    for (file, header) in zip(unknown, headers) {
      let recordOutcome: PhotoFileRecord.Outcome
      switch header {
      case .success(let header):
        recordOutcome = .image(header)
      case .failure(let error):
        recordOutcome = .skipped(reason: error.description)
        skipped(file.relativePath, error.description)
      }
      let record = PhotoFileRecord(size: file.size, modified: file.modified, outcome: recordOutcome)
      outcome.records[file.relativePath] = record
      outcome.changed.append((file.relativePath, record))
    }
    outcome.report.read = unknown.count
    if skipLines > maxSkipLines {
      log(.info, "more photos skipped", ["count": String(skipLines - maxSkipLines)])
    }
    return outcome
  }

  /// Runs `body` on a new thread and waits for it.
  static func onOwnThread<T: Sendable>(
    _ body: @escaping @Sendable () throws(PhotoFolderError) -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let started = DedicatedThread.start {
        continuation.resume(with: Result { () throws(PhotoFolderError) in try body() })
      }
      if !started {
        continuation.resume(
          throwing: PhotoFolderError.noThread(errno: EAGAIN))
      }
    }
  }
}
