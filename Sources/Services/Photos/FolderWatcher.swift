import Synchronization

#if os(Linux)
  import Glibc
#endif

/// Reports what changes under a folder as it changes, for a live feed of its
/// photos: the relative paths of files created, written, changed (size,
/// time, permissions), moved in or out and deleted, in batches.
///
/// The only code of the photos service that knows how a system reports
/// changes: inotify on Linux, a watch per folder (a new folder is watched as
/// it appears). Elsewhere `start` throws `watchingUnsupported`, and the index
/// goes on scanning the folder when asked.
///
/// It leaves out what the walker leaves out (hidden names, folders deeper
/// than `PhotoFolderWalker.maxDepth`) and follows links to folders as the
/// walker does; a folder reached by two paths is watched under the first.
final class FolderWatcher: Sendable {
  /// What the watcher reports.
  enum Event: Sendable, Hashable {
    /// Paths under the folder, relative, "/"-separated, in `PathOrder`: each
    /// file that may have changed, and each folder that appeared, moved or
    /// went, which stands for everything under it. A folder is reported
    /// once it is watched, so a look at it then misses nothing: a file made
    /// in it before is there to see, one made after is reported again.
    case changed([String])
    /// Changes may have been missed (the kernel's queue overflowed, or a
    /// folder could not be watched for the limit of watches): look at the
    /// whole folder again. Everything is watched again before this is sent.
    case overflow
    /// The folder itself was deleted, moved or unmounted: nothing more is
    /// reported.
    case ended
  }

  /// The folder, absolute.
  let root: String
  /// How long the events after a first one are gathered into its batch: a
  /// burst (a copy of 1,000 files) makes a few batches, not 3,000 events.
  let coalescing: Duration
  /// Folders watched now.
  private let watched = Atomic<Int>(0)
  /// Folders left unwatched because the limit of watches was reached
  /// (`fs.inotify.max_user_watches`), since the start.
  private let unwatched = Atomic<Int>(0)

  init(root: String, coalescing: Duration = .milliseconds(30)) {
    self.root = root
    self.coalescing = coalescing
  }

  /// Folders watched now.
  var watchedFolders: Int { watched.load(ordering: .relaxed) }
  /// Folders left unwatched for the limit of watches, since the start.
  var unwatchedFolders: Int { unwatched.load(ordering: .relaxed) }

  #if os(Linux)
    /// The running watch's descriptors; nil when stopped.
    private let running = Mutex<Descriptors?>(nil)

    deinit { stop() }

    /// Watches every folder under the root, then reports on a thread of its
    /// own: `onEvent` runs on that thread, one event at a time, and may run
    /// once more while `stop` returns. Blocking (it reads every folder):
    /// call it off the cooperative pool. Changes made after it returns are
    /// all reported.
    /// - Throws: `cannotWatch` when the root cannot be watched, `noThread`.
    func start(_ onEvent: @escaping @Sendable (Event) -> Void) throws(PhotoFolderError) {
      stop()
      let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard inotify >= 0 else { throw .cannotWatch(path: root, errno: errno) }
      var wake: [Int32] = [-1, -1]
      guard pipe(&wake) == 0 else {
        let code = errno
        close(inotify)
        throw .cannotWatch(path: root, errno: code)
      }
      // Swift's Glibc module has neither `pipe2` nor `eventfd`: close-on-exec
      // is set just after (the daemon starts no process of its own).
      for descriptor in wake {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
      }
      let descriptors = Descriptors(inotify: inotify, wakeRead: wake[0], wakeWrite: wake[1])
      var tree = WatchedTree(root: root, descriptor: inotify)
      _ = tree.watch("", depth: 0)
      guard tree.rootWatch != nil else {
        throw .cannotWatch(path: root, errno: tree.rootError)
      }
      watched.store(tree.folders.count, ordering: .relaxed)
      unwatched.store(tree.unwatchable, ordering: .relaxed)
      let loop = Loop(
        tree: tree, descriptors: descriptors, coalescing: Self.nanoseconds(coalescing),
        onEvent: onEvent, watched: self)
      running.withLock { $0 = descriptors }
      guard DedicatedThread.start({ loop.run() }) else {
        running.withLock { $0 = nil }
        throw .noThread(errno: EAGAIN)
      }
    }

    /// Stops reporting: the thread wakes at once and ends.
    func stop() {
      guard let descriptors = running.withLock({ $0.take() }) else { return }
      descriptors.isStopped.store(true, ordering: .relaxed)
      var byte: UInt8 = 1
      _ = write(descriptors.wakeWrite, &byte, 1)
    }

    fileprivate func record(_ tree: WatchedTree) {
      watched.store(tree.folders.count, ordering: .relaxed)
      unwatched.store(tree.unwatchable, ordering: .relaxed)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
      let (seconds, attoseconds) = duration.components
      return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
  #else
    func start(_ onEvent: @escaping @Sendable (Event) -> Void) throws(PhotoFolderError) {
      throw .watchingUnsupported
    }

    func stop() {}
  #endif
}

#if os(Linux)
  /// The inotify descriptor and the pipe that wakes the thread to stop,
  /// closed when both the thread and the watcher are done with them (so
  /// that `stop` never writes to a descriptor number reused meanwhile).
  private final class Descriptors: Sendable {
    let inotify: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    /// Set by `stop`: no event is reported after the thread sees it.
    let isStopped = Atomic<Bool>(false)

    init(inotify: Int32, wakeRead: Int32, wakeWrite: Int32) {
      self.inotify = inotify
      self.wakeRead = wakeRead
      self.wakeWrite = wakeWrite
    }

    deinit {
      close(inotify)
      close(wakeRead)
      close(wakeWrite)
    }
  }

  /// The folders watched, by watch descriptor. Owned by one thread at a time:
  /// the starter's, then the loop's.
  private struct WatchedTree: Sendable {
    /// What each folder's watch reports: its entries created, deleted, moved
    /// in and out, written and closed, written, changed in size, time or
    /// permissions; and its own deletion or move. Links to folders are
    /// followed; a folder's entries unlinked while open say nothing more.
    static let mask =
      UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY)
      | UInt32(IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR | IN_EXCL_UNLINK)

    let root: String
    let descriptor: Int32
    /// The relative path of each folder watched ("" for the root).
    var folders: [Int32: String] = [:]
    /// The watches among `folders` reached through a link: deleting the link
    /// unwatches them, with no `IN_ISDIR` to tell.
    var linked: [Int32: String] = [:]
    /// The root's watch.
    var rootWatch: Int32?
    /// Why the root could not be watched.
    var rootError: Int32 = 0
    /// Folders left unwatched for the limit of watches.
    var unwatchable = 0

    init(root: String, descriptor: Int32) {
      self.root = root
      self.descriptor = descriptor
    }

    /// Watches the folder at `path` (relative, "" for the root, at `depth`)
    /// and every folder under it; false when the limit of watches left one
    /// unwatched.
    mutating func watch(_ path: String, depth: Int, isLink: Bool = false) -> Bool {
      let absolute = path.isEmpty ? root : root + "/" + path
      let added = inotify_add_watch(descriptor, absolute, Self.mask)
      guard added >= 0 else {
        if path.isEmpty { rootError = errno }
        guard errno == ENOSPC else { return true }  // gone since, or not a folder
        unwatchable += 1
        return false
      }
      if path.isEmpty { rootWatch = added }
      if let known = folders[added], PathOrder.compare(known, path) != 0 {
        return true  // one folder reached by two paths (a link, or a link loop)
      }
      folders[added] = path
      if isLink { linked[added] = path }
      guard depth < PhotoFolderWalker.maxDepth else { return true }
      var allWatched = true
      for (folder, isLink) in Self.subfolders(of: absolute, relative: path) {
        allWatched = watch(folder, depth: depth + 1, isLink: isLink) && allWatched
      }
      return allWatched
    }

    /// Stops watching the folder at `path` and every folder under it.
    mutating func unwatch(_ path: String) {
      for (watch, folder) in folders where PathOrder.isWithin(folder, folder: path) {
        inotify_rm_watch(descriptor, watch)
        folders[watch] = nil
        linked[watch] = nil
      }
    }

    /// Watches every folder again, from the root, and drops the watches of
    /// folders gone: after an overflow, folders made meanwhile may be
    /// unwatched. False when the root itself can no longer be watched.
    mutating func rewatch() -> Bool {
      let before = folders
      (folders, linked, rootWatch) = ([:], [:], nil)
      _ = watch("", depth: 0)
      for watch in before.keys where folders[watch] == nil {
        inotify_rm_watch(descriptor, watch)
      }
      return rootWatch != nil
    }

    /// Whether `path` (relative) is a watched folder reached through a link.
    func isLinkedFolder(_ path: String) -> Bool {
      linked.values.contains { PathOrder.compare($0, path) == 0 }
    }

    /// The folders in the folder at `absolute` (whose relative path is
    /// `relative`), hidden ones left out, with whether each is a link.
    private static func subfolders(
      of absolute: String, relative: String
    ) -> [(path: String, isLink: Bool)] {
      guard let directory = opendir(absolute) else { return [] }
      defer { closedir(directory) }
      var subfolders: [(path: String, isLink: Bool)] = []
      while let entry = readdir(directory) {
        let kind = Int(entry.pointee.d_type)
        guard kind == DT_DIR || kind == DT_LNK || kind == DT_UNKNOWN else { continue }
        let name: String? = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
          tuple.withMemoryRebound(to: CChar.self, capacity: 256) { name in
            // Hidden entries, ".", "..": left out, as the walker leaves them.
            name[0] == 0x2E ? nil : String(validatingCString: name)
          }
        }
        guard let name else { continue }
        if kind != DT_DIR, !isFolder(absolute + "/" + name) { continue }
        subfolders.append((relative.isEmpty ? name : relative + "/" + name, kind == DT_LNK))
      }
      return subfolders
    }

    /// Whether `path` (absolute) is a folder, links followed.
    static func isFolder(_ path: String) -> Bool {
      guard let status = PhotoFiles.status(path) else { return false }
      return status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` (absolute) is a link, followed or not.
    static func isLink(_ path: String) -> Bool {
      var status = stat()
      return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
  }

  /// What the events read since the last report add up to.
  private struct Batch {
    /// Paths changed, in the order reported, repeats included.
    var paths: [String] = []
    /// The kernel dropped events.
    var queueOverflowed = false
    /// A folder could not be watched for the limit of watches.
    var limitReached = false
    /// The root went away.
    var ended = false

    /// The paths, in `PathOrder`, each once.
    func uniquePaths() -> [String] {
      var unique: [String] = []
      for path in paths.sorted(by: PathOrder.precedes)
      where unique.last.map({ PathOrder.compare($0, path) != 0 }) ?? true {
        unique.append(path)
      }
      return unique
    }
  }

  /// The watcher's thread: waits for events or the wake-up to stop, gathers
  /// events into batches, and reports them.
  private final class Loop: Sendable {
    /// The tree, owned by the thread once it runs (it alone calls `run`).
    private let tree: Mutex<WatchedTree>
    private let descriptors: Descriptors
    private let coalescing: UInt64
    private let onEvent: @Sendable (FolderWatcher.Event) -> Void
    /// Where the counts of folders go; weak, so that the watcher can end
    /// (and its `deinit` stop the thread) while the thread runs.
    private weak let watcher: FolderWatcher?

    init(
      tree: WatchedTree, descriptors: Descriptors, coalescing: UInt64,
      onEvent: @escaping @Sendable (FolderWatcher.Event) -> Void, watched: FolderWatcher
    ) {
      self.tree = Mutex(tree)
      self.descriptors = descriptors
      self.coalescing = coalescing
      self.onEvent = onEvent
      self.watcher = watched
    }

    /// Events read at a time: 64 KiB holds over a thousand.
    static let bufferSize = 65_536

    func run() {
      let ended = tree.withLock { tree in run(&tree) }
      // The descriptor closes with the thread's end, and its watches with it;
      // counted before `.ended` is reported, so that whoever hears of the end
      // finds none watched.
      watcher?.record(WatchedTree(root: "", descriptor: -1))
      if ended { report(.ended) }
    }

    /// Watches until stopped (false) or until the folder can no longer be
    /// watched (true).
    private func run(_ tree: inout WatchedTree) -> Bool {
      let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Self.bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
      defer { buffer.deallocate() }
      var descriptors = [
        pollfd(fd: self.descriptors.inotify, events: Int16(POLLIN), revents: 0),
        pollfd(fd: self.descriptors.wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      var batch = Batch()
      // When the batch under way is due; nil while there is none.
      var due: UInt64?
      while true {
        var timeout: Int32 = -1
        if let due {
          let now = monotonicNanoseconds()
          timeout = now >= due ? 0 : Int32((due - now + 999_999) / 1_000_000)
        }
        descriptors[0].revents = 0
        descriptors[1].revents = 0
        if poll(&descriptors, 2, timeout) < 0, errno != EINTR {
          return true
        }
        if descriptors[1].revents != 0 || self.descriptors.isStopped.load(ordering: .relaxed) {
          return false
        }
        if descriptors[0].revents != 0 {
          let count = read(self.descriptors.inotify, buffer.baseAddress, buffer.count)
          if count > 0 {
            Self.handle(UnsafeRawBufferPointer(rebasing: buffer[..<count]), &tree, &batch)
          }
        }
        if batch.ended {
          return true
        }
        if batch.queueOverflowed || batch.limitReached {
          // Whatever the batch held, the look at the whole folder covers.
          if batch.queueOverflowed, !tree.rewatch() {
            return true
          }
          watcher?.record(tree)
          (batch, due) = (Batch(), nil)
          report(.overflow)
          continue
        }
        if !batch.paths.isEmpty, due == nil {
          due = monotonicNanoseconds() + coalescing
        }
        if let dueTime = due, monotonicNanoseconds() >= dueTime {
          watcher?.record(tree)
          report(.changed(batch.uniquePaths()))
          (batch, due) = (Batch(), nil)
        }
      }
    }

    private func report(_ event: FolderWatcher.Event) {
      guard !descriptors.isStopped.load(ordering: .relaxed) else { return }
      onEvent(event)
    }

    /// Adds the events in `bytes` (`inotify_event`s, as `read` gave them) to `batch`.
    private static func handle(
      _ bytes: UnsafeRawBufferPointer, _ tree: inout WatchedTree, _ batch: inout Batch
    ) {
      let headerSize = MemoryLayout<inotify_event>.size
      var offset = 0
      while offset + headerSize <= bytes.count {
        let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
        let start = offset + headerSize
        offset = start + length
        // The name is padded with NULs; nil when it is not UTF-8 (the walker skips those).
        let name = String(
          validating: bytes[start..<min(offset, bytes.count)].prefix { $0 != 0 }, as: UTF8.self)
        handle(watch: watch, mask: mask, name: name, &tree, &batch)
      }
    }

    private static func handle(
      watch: Int32, mask: UInt32, name: String?, _ tree: inout WatchedTree, _ batch: inout Batch
    ) {
      if mask & UInt32(IN_Q_OVERFLOW) != 0 {
        batch.queueOverflowed = true
        return
      }
      guard let folder = tree.folders[watch] else { return }  // a folder no longer watched
      if mask & UInt32(IN_IGNORED) != 0 {
        tree.folders[watch] = nil
        tree.linked[watch] = nil
        if watch == tree.rootWatch { batch.ended = true }
        return
      }
      if watch == tree.rootWatch, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
        batch.ended = true
        return
      }
      // The folder's own events (its parent reports them), and hidden names.
      guard let name, let first = name.utf8.first, first != UInt8(ascii: ".") else { return }
      let path = folder.isEmpty ? name : folder + "/" + name
      let isFolder = mask & UInt32(IN_ISDIR) != 0
      if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0, isFolder || tree.isLinkedFolder(path) {
        tree.unwatch(path)
      }
      if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
        let absolute = tree.root + "/" + path
        let isLink = !isFolder && WatchedTree.isLink(absolute)
        if isFolder || (isLink && WatchedTree.isFolder(absolute)) {
          let depth = path.utf8.reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
          if depth <= PhotoFolderWalker.maxDepth,
            !tree.watch(path, depth: depth, isLink: isLink)
          {
            batch.limitReached = true
          }
        }
      }
      batch.paths.append(path)
    }
  }
#endif
