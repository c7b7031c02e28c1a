import Synchronization

/// A photo index kept in step with its folder by a `FolderWatcher`, and the
/// changes it goes through, sent to every subscriber.
///
/// Watching starts with the watches, then a full scan (so that no change
/// falls between the two); from then on each batch the watcher reports is
/// applied to the index in turn (`PhotoIndex.apply(changedPaths:)`), the
/// batches that arrive meanwhile gathered into the next one, and its changes
/// sent as one event. An overflow rescans the folder and sends `resync`.
final class LivePhotoIndex: Sendable {
  let index: PhotoIndex
  private let log: PhotoLog
  /// How long the watcher gathers events into a batch.
  private let coalescing: Duration
  private let state = Mutex(State())

  /// Events a subscriber may leave unread; past that the oldest are dropped
  /// and a `resync` is sent in their place.
  static let bufferedEvents = 256

  private struct State {
    /// The start under way or done (watches, then a scan), which callers
    /// share; nil before the first and after watching ended.
    var start: SharedTask<Void>?
    /// The watcher, from its start until it ends.
    var watcher: FolderWatcher?
    /// Whether the watcher runs and the index was scanned since it started:
    /// the index is up to date but for the batch being applied.
    var isLive = false
    /// Whether watching was live once: a new start sends `resync`.
    var wasLive = false
    /// Each subscriber's stream, by a number of its own.
    var subscribers: [UInt64: AsyncStream<PhotoFolderEvent>.Continuation] = [:]
    var nextSubscriber: UInt64 = 0
    /// Paths reported and not yet applied.
    var pendingPaths: [String] = []
    /// Whether an overflow asks for a full scan.
    var needsRescan = false
    /// Whether a task applies the pending paths now.
    var isApplying = false
    /// The folders left unwatched that a warning told of.
    var unwatchedTold = 0
  }

  init(index: PhotoIndex, log: @escaping PhotoLog, coalescing: Duration) {
    self.index = index
    self.log = log
    self.coalescing = coalescing
  }

  deinit {
    let (watcher, subscribers) = state.withLock { state in
      defer { (state.watcher, state.subscribers) = (nil, [:]) }
      return (state.watcher, Array(state.subscribers.values))
    }
    watcher?.stop()
    for subscriber in subscribers { subscriber.finish() }
  }

  /// Whether the index follows the folder now.
  var isLive: Bool { state.withLock { $0.isLive } }

  /// Folders the watcher watches now (0 when not watching).
  var watchedFolders: Int { state.withLock { $0.watcher }?.watchedFolders ?? 0 }

  /// A new stream of the events from now on. It finishes when the index is
  /// deinitialized; the subscriber leaves when it stops iterating.
  func subscribe() -> AsyncStream<PhotoFolderEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: PhotoFolderEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
    let number = state.withLock { state in
      defer { state.nextSubscriber += 1 }
      state.subscribers[state.nextSubscriber] = continuation
      return state.nextSubscriber
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.subscribers.removeValue(forKey: number) }
    }
    return stream
  }

  /// The start of watching: started by the first caller (after `prepare`),
  /// shared by the others until it ends, tried again after a failure or
  /// once watching ended.
  func start(preparing prepare: @escaping @Sendable () async throws -> Void) -> SharedTask<Void> {
    state.withLock { state in
      if let start = state.start, !start.hasFailed { return start }
      let start = SharedTask { [weak self] in
        try await prepare()
        try await self?.watch()
      }
      state.start = start
      return start
    }
  }

  private func watch() async throws {
    let watcher = FolderWatcher(root: index.folder, coalescing: coalescing)
    do {
      try await PhotoIndex.onOwnThread { () throws(PhotoFolderError) in
        try watcher.start { [weak self, weak watcher] event in
          guard let self, let watcher else { return }
          self.received(event, from: watcher)
        }
      }
      state.withLock { $0.watcher = watcher }
      _ = try await index.rescan()
    } catch {
      watcher.stop()
      state.withLock { state in
        guard state.watcher === watcher else { return }
        (state.watcher, state.pendingPaths, state.needsRescan) = (nil, [], false)
      }
      log(
        error as? PhotoFolderError == .watchingUnsupported ? .debug : .warn,
        "photos folder not followed live", ["folder": index.folder, "error": "\(error)"])
      throw error
    }
    let started = state.withLock { state -> (wasLive: Bool, applies: Bool)? in
      // Ended meanwhile (the folder went): not live, and the next call starts again.
      guard state.watcher === watcher else { return nil }
      defer { (state.isLive, state.wasLive) = (true, true) }
      let applies = !state.isApplying && (!state.pendingPaths.isEmpty || state.needsRescan)
      if applies { state.isApplying = true }
      return (state.wasLive, applies)
    }
    guard let started else { return }
    log(
      .info, "photos folder followed live",
      ["folder": index.folder, "folders": String(watcher.watchedFolders)])
    warnOfTheWatchLimit(watcher)
    if started.wasLive { broadcast(.resync) }
    if started.applies { Task { await self.applyPending() } }
  }

  /// What the watcher reported, on its thread.
  private func received(_ event: FolderWatcher.Event, from watcher: FolderWatcher) {
    var applies = false
    var ended: FolderWatcher?
    state.withLock { state in
      guard state.watcher === watcher else { return }  // one stopped since
      switch event {
      case .changed(let paths):
        state.pendingPaths += paths
      case .overflow:
        state.needsRescan = true
      case .ended:
        ended = state.watcher
        (state.watcher, state.start, state.isLive) = (nil, nil, false)
        (state.pendingPaths, state.needsRescan) = ([], false)
        return
      }
      guard state.isLive, !state.isApplying else { return }
      state.isApplying = true
      applies = true
    }
    if let ended {
      ended.stop()
      log(
        .warn, "photos folder no longer followed: it was deleted or moved", ["folder": index.folder]
      )
      // The reload the resync asks for finds what is there now, if anything.
      Task {
        await index.forget()
        broadcast(.resync)
      }
    } else if event == .overflow {
      warnOfTheWatchLimit(watcher)
    }
    if applies { Task { await self.applyPending() } }
  }

  /// Handles `event` as if the running watcher had reported it: how tests
  /// make an overflow of the backend's watcher happen when they need to.
  func handleAsReported(_ event: FolderWatcher.Event) {
    guard let watcher = state.withLock({ $0.watcher }) else { return }
    received(event, from: watcher)
  }

  /// Warns when more folders than last told are left unwatched for the
  /// limit of watches (changes in them are not seen).
  private func warnOfTheWatchLimit(_ watcher: FolderWatcher) {
    let unwatched = watcher.unwatchedFolders
    let isNew = state.withLock { state in
      defer { state.unwatchedTold = max(state.unwatchedTold, unwatched) }
      return unwatched > state.unwatchedTold
    }
    guard isNew else { return }
    log(
      .warn, "photos folder partly followed: the limit of inotify watches was reached",
      [
        "folder": index.folder, "unwatched": String(watcher.unwatchedFolders),
        "setting": "fs.inotify.max_user_watches",
      ])
  }

  /// Applies the pending paths to the index, batch after batch, until none
  /// are left, and sends each batch's changes.
  private func applyPending() async {
    while true {
      let work = state.withLock { state -> (paths: [String], rescans: Bool)? in
        guard state.isLive, state.needsRescan || !state.pendingPaths.isEmpty else {
          state.isApplying = false
          return nil
        }
        defer { (state.pendingPaths, state.needsRescan) = ([], false) }
        return (state.pendingPaths, state.needsRescan)
      }
      guard let work else { return }
      if work.rescans {
        // The scan covers the paths reported with the overflow.
        do {
          _ = try await index.rescan()
        } catch {
          log(.warn, "photos folder not rescanned", ["folder": index.folder, "error": "\(error)"])
        }
        broadcast(.resync)
        continue
      }
      do {
        let update = try await index.apply(changedPaths: work.paths)
        let changes = Self.folderChanges(update.changes, folder: update.snapshot.folder)
        if !changes.isEmpty { broadcast(.changed(changes)) }
      } catch {
        log(
          .warn, "photos folder changes not applied", ["folder": index.folder, "error": "\(error)"])
        broadcast(.resync)
      }
    }
  }

  /// The changes a feed sees: none for a photo whose wire value is the same.
  static func folderChanges(_ changes: [PhotoIndexChange], folder: String) -> [PhotoFolderChange] {
    var folderChanges: [PhotoFolderChange] = []
    for change in changes {
      let after = change.after.map { FolderPhotoBackend.photo($0, folder: folder) }
      if let before = change.before {
        if let after, after.id == before.id {
          if after == FolderPhotoBackend.photo(before, folder: folder) { continue }
        } else {
          folderChanges.append(.removed(id: before.id, relativePath: before.relativePath))
        }
      }
      if let after, let indexed = change.after {
        folderChanges.append(.upserted(photo: after, relativePath: indexed.relativePath))
      }
    }
    return folderChanges
  }

  private func broadcast(_ event: PhotoFolderEvent) {
    let subscribers = state.withLock { Array($0.subscribers.values) }
    for subscriber in subscribers {
      if case .dropped = subscriber.yield(event) {
        subscriber.yield(.resync)  // in place of what was dropped
      }
    }
  }
}
