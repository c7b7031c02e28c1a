import Glibc

/// The images of one folder, found by walking it and reading their headers,
/// with the result cached in SQLite by path, size and modification time: a
/// later scan (in this process or the next) only `stat`s the files it knows
/// and reads the new and changed ones.
///
/// A scan runs on a thread of its own, never on Swift's cooperative pool, and
/// callers that ask while one runs share it. Nothing happens until the first
/// call: the daemon starts without touching the folder.
///
/// A folder followed live (`FolderWatcher`) is kept in step by applying the
/// paths that changed (`apply(changedPaths:)`) instead of scanning it again.
public actor PhotoIndex {
  /// The folder, absolute.
  public nonisolated let folder: String
  /// The cache on disk; nil keeps the index in memory only.
  private let store: PhotoIndexStore?
  private let log: PhotoLog
  /// What is known of each file, in `PathOrder` of their relative paths:
  /// from the store at the first scan, then from the last scan.
  private var known: [(path: String, record: PhotoFileRecord)]?
  /// The last scan's result.
  private var latest: PhotoIndexSnapshot?
  /// The scan under way, which callers join.
  private var running: SharedTask<PhotoIndexSnapshot>?
  /// Whether a scan or a batch of changes is being applied: they take turns,
  /// each starting from the last one's records (the actor alone would let
  /// one start while another awaits).
  private var isUpdating = false
  /// Scans and batches waiting for their turn, first come first served.
  private var waitingToUpdate: [CheckedContinuation<Void, Never>] = []

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
    return try await rescan()
  }

  /// The result of a scan that starts after this call (after the one under
  /// way, if any, ends): it sees every change made before the call. Later
  /// callers of `scan` join it.
  public func rescan() async throws -> PhotoIndexSnapshot {
    let task = SharedTask { [self] in try await self.performScan() }
    running = task
    return try await task.value()
  }

  /// Drops the last scan's result, so that the next snapshot scans again:
  /// the folder went away, and that result no longer says what it holds.
  /// The records stay, to spare reading again the files of a folder put back.
  public func forget() async {
    await beginUpdate()
    latest = nil
    endUpdate()
  }

  /// Waits for the scan or batch under way, if any, to end.
  private func beginUpdate() async {
    guard isUpdating else {
      isUpdating = true
      return
    }
    // `endUpdate` hands the turn over: `isUpdating` stays true.
    await withCheckedContinuation { waitingToUpdate.append($0) }
  }

  private func endUpdate() {
    if waitingToUpdate.isEmpty {
      isUpdating = false
    } else {
      waitingToUpdate.removeFirst().resume()
    }
  }

  private func performScan() async throws -> PhotoIndexSnapshot {
    await beginUpdate()
    defer { endUpdate() }
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
    let previous = self.known
    let outcome = try await Self.onOwnThread { () throws(PhotoFolderError) in
      let known = loaded.map { Self.inPathOrder($0.files) } ?? previous ?? []
      return Self.read(walk, folder: folder, known: known, log: log)
    }
    let unchanged = outcome.changed.isEmpty && outcome.removed.isEmpty
    // The cache is written while the photos' ids are made (on other threads).
    async let saved: Void = {
      guard let store, !unchanged else { return }
      do {
        try await store.save(folder: folder, changed: outcome.changed, removed: outcome.removed)
      } catch {
        log(.warn, "photo index cache not saved", ["error": "\(error)"])
      }
    }()
    var snapshot: PhotoIndexSnapshot
    if let latest, unchanged {
      // The same files as last time: the same photos, in the same order.
      snapshot = latest
    } else {
      snapshot = try await Self.onOwnThread { () throws(PhotoFolderError) in
        PhotoIndexSnapshot(
          folder: folder, files: outcome.records, taken: started, report: outcome.report)
      }
    }
    await saved
    var report = outcome.report
    report.seconds = ((ContinuousClock.now - started) / .milliseconds(1)).rounded() / 1_000
    snapshot = snapshot.renewed(taken: started, report: report)
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

  /// Brings the index up to date with the files at `changedPaths` (relative
  /// to the folder, as `FolderWatcher` reports them; a folder's path stands
  /// for everything under it): only those are looked at, the cache is
  /// updated, and the snapshot becomes what a full scan would make (the same
  /// photos, order and ids). Waits for a scan under way to end first.
  ///
  /// With no earlier scan to start from, it scans (and every photo is new).
  /// - Throws: `PhotoFolderError` when that scan fails or no thread starts.
  public func apply(changedPaths: [String]) async throws -> PhotoIndexUpdate {
    await beginUpdate()
    // Only the records concerned go to the thread: `known` stays unshared, to
    // be changed in place below.
    guard var snapshot = latest,
      let recorded = known.map({ PhotoIndexPatch.records(at: changedPaths, in: $0) })
    else {
      endUpdate()
      let snapshot = try await scan()
      return PhotoIndexUpdate(
        snapshot: snapshot,
        changes: snapshot.photos.map { PhotoIndexChange(before: nil, after: $0) })
    }
    defer { endUpdate() }
    let started = ContinuousClock.now
    let (folder, log) = (folder, log)
    let patch = try await Self.onOwnThread { () throws(PhotoFolderError) in
      PhotoIndexPatch.look(at: changedPaths, folder: folder, recorded: recorded, log: log)
    }
    guard !patch.isEmpty else { return PhotoIndexUpdate(snapshot: snapshot, changes: []) }
    async let saved: Void = {
      guard let store else { return }
      do {
        try await store.save(
          folder: folder, changed: patch.insertions.map { ($0.path, $0.record) },
          removed: patch.gone)
      } catch {
        log(.warn, "photo index cache not saved", ["error": "\(error)"])
      }
    }()
    // Taken out, so that nothing else holds them while they change in place
    // (a reader that does gets its own copy).
    var records = self.known ?? []
    (self.known, latest) = (nil, nil)
    PathOrder.update(
      &records, removing: patch.removals.map(\.path), inserting: patch.insertions, path: \.path)
    let changes = Self.apply(patch, to: &snapshot, records: records)
    (self.known, latest) = (records, snapshot)
    await saved
    log(
      .debug, "photos updated",
      [
        "folder": folder, "paths": String(changedPaths.count), "read": String(patch.read),
        "changes": String(changes.count),
        "seconds": String(((ContinuousClock.now - started) / .milliseconds(1)).rounded() / 1_000),
      ])
    return PhotoIndexUpdate(snapshot: snapshot, changes: changes)
  }

  /// Applies `patch` to `snapshot`, and gives the photos that changed.
  /// `records` are every record after the patch, for the rare patch that
  /// renumbers ids.
  static func apply(
    _ patch: PhotoIndexPatch, to snapshot: inout PhotoIndexSnapshot,
    records: [(path: String, record: PhotoFileRecord)]
  ) -> [PhotoIndexChange] {
    let removed = patch.removals.compactMap { removal -> String? in
      guard case .image = removal.record.outcome else { return nil }
      return removal.path
    }
    let inserted = patch.insertions.compactMap {
      insertion -> (path: String, header: ImageHeader, size: Int64)? in
      guard case .image(let header) = insertion.record.outcome else { return nil }
      return (insertion.path, header, insertion.record.size)
    }
    let before = removed.compactMap { snapshot.photo(at: $0) }
    if snapshot.apply(removing: removed, inserting: inserted) {
      return PhotoIndexChange.pairing(before, inserted.compactMap { snapshot.photo(at: $0.path) })
    }
    // Two paths of one hash: the ids are made again from every path.
    let old = snapshot.photos
    snapshot = PhotoIndexSnapshot(
      folder: snapshot.folder, files: records, taken: snapshot.taken, report: snapshot.report)
    return PhotoIndexChange.pairing(old, snapshot.photos)
  }

  /// What one walk found and read.
  struct WalkOutcome: Sendable {
    /// Every file's record, in `PathOrder` of their paths.
    var records: [(path: String, record: PhotoFileRecord)] = []
    var changed: [(String, PhotoFileRecord)] = []
    var removed: [String] = []
    var report = PhotoScanReport()
  }

  /// `files`, sorted by path if they are not (a cache written by another
  /// SQLite could collate otherwise): the merge in `read` needs the order.
  static func inPathOrder(
    _ files: [(path: String, record: PhotoFileRecord)]
  ) -> [(path: String, record: PhotoFileRecord)] {
    let ordered = zip(files, files.dropFirst()).allSatisfy {
      PathOrder.precedes($0.0.path, $0.1.path)
    }
    return ordered ? files : files.sorted { PathOrder.precedes($0.path, $1.path) }
  }

  /// Reads the headers of the files of `walk` that `known` does not describe
  /// as they are now, and logs what was skipped. Blocking: runs on a thread
  /// of its own.
  ///
  /// The walk and `known` are both in `PathOrder`, so one pass over the two
  /// side by side pairs each file with its record (or finds it new, or finds
  /// a record's file gone), with no lookup by path.
  static func read(
    _ walk: PhotoFolderWalker.Walk, folder: String,
    known: [(path: String, record: PhotoFileRecord)], log: PhotoLog
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
    outcome.records.reserveCapacity(files.count)
    // Files to read, with the position of their record in `outcome.records`.
    var unknown: [(position: Int, file: PhotoFolderWalker.File)] = []
    var next = 0  // the first record of `known` not yet paired
    for file in files {
      var order = 1
      while next < known.count {
        order = PathOrder.compare(known[next].path, file.relativePath)
        guard order < 0 else { break }
        // A record before this file that no file matched: its file is gone.
        outcome.removed.append(known[next].path)
        next += 1
      }
      if order == 0 {
        let record = known[next].record
        next += 1
        if record.matches(size: file.size, modified: file.modified) {
          if case .skipped = record.outcome { outcome.report.skipped += 1 }
          outcome.records.append((file.relativePath, record))
          continue
        }
      }
      unknown.append((outcome.records.count, file))
      // A stand-in until the header is read below.
      outcome.records.append(
        (
          file.relativePath,
          PhotoFileRecord(size: file.size, modified: file.modified, outcome: .skipped(reason: ""))
        ))
    }
    outcome.removed += known[next...].map(\.path)
    outcome.report.removed = outcome.removed.count
    let headers = ParallelHeaderReader.read(unknown.map { folder + "/" + $0.file.relativePath })
    for ((position, file), header) in zip(unknown, headers) {
      let recordOutcome: PhotoFileRecord.Outcome
      switch header {
      case .success(let header):
        recordOutcome = .image(header)
      case .failure(let error):
        recordOutcome = .skipped(reason: error.description)
        skipped(file.relativePath, error.description)
      }
      let record = PhotoFileRecord(size: file.size, modified: file.modified, outcome: recordOutcome)
      outcome.records[position].record = record
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
