import Glibc

/// Lists the regular files under a folder, recursively, with their size and
/// modification time: `opendir`/`readdir` and one `fstatat` per file, no file
/// opened. Hidden entries (a name starting with a dot) are left out, symbolic
/// links are followed, and a folder reached twice (a link loop, or two links
/// to one folder) is walked once.
///
/// The folders of one depth are read by several threads at once, then the
/// status of all their entries, a few hundred at a time, so that one large
/// folder is shared between the threads as well as many small ones: with the
/// directory entries and inodes out of the cache, each `fstatat` costs the
/// kernel a search of the directory's block and an inode read (CPU time, not
/// disk: see Benchmarks/README.md), so threads put every core to it and keep
/// reads in flight. The folders found are taken in a fixed order, so the
/// result does not depend on which thread finished first.
struct PhotoFolderWalker {
  /// A regular file found.
  struct File: Sendable, Hashable {
    /// The path under the folder, "/"-separated, valid UTF-8.
    let relativePath: String
    let size: Int64
    /// Modification time in nanoseconds since the epoch.
    let modified: Int64
  }

  /// What a walk found.
  struct Walk: Sendable {
    /// Every regular file, in `PathOrder` of their relative paths.
    var files: [File] = []
    /// Entries left out for a reason worth a log line, with that reason.
    var skipped: [(relativePath: String, reason: String)] = []
  }

  /// A device and inode: the identity of a folder.
  private struct FolderIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
  }

  /// A file or a sub-folder, by its path under the root.
  private enum Entry: Sendable {
    case file(File)
    case folder(String)

    var isFolder: Bool {
      if case .folder = self { return true }
      return false
    }
  }

  /// A folder's entries as `readdir` gave them, before any `fstatat`.
  private struct Reading: Sendable {
    /// The opened folder's identity; nil when it could not be opened.
    var identity: FolderIdentity?
    /// Each entry's path under the root and `d_type`: `DT_DIR`, or one that
    /// `fstatat` must tell (`DT_REG`, `DT_LNK`, `DT_UNKNOWN`).
    var entries: [(path: String, kind: Int)] = []
    /// How many of `entries` need their status.
    var unknown = 0
    /// The UTF-8 length of what every entry's path starts with: the folder's
    /// path and "/" (none for the root).
    var prefixLength = 0
    var skipped: [(relativePath: String, reason: String)] = []
  }

  /// What `fstatat` told of an entry.
  private enum Status: Sendable {
    case file(size: Int64, modified: Int64)
    case folder
    /// A device, socket or pipe: left out without a word.
    case other
    case failed(errno: Int32)
  }

  /// A walked folder's files and sub-folders, ordered so that the paths
  /// under them follow `PathOrder` (see `precedes`).
  private struct Listing: Sendable {
    var entries: [Entry] = []
    var skipped: [(relativePath: String, reason: String)] = []
  }

  /// Folders deeper than this are not walked.
  static let maxDepth = 64
  /// Folders read, or entries `fstatat`'ed, at once. A cold walk is bound by
  /// the kernel's lookups on the cores, not by the disk, so 4, 8 or 16 threads
  /// measured alike (Benchmarks/README.md). 8 keeps more inode reads in flight
  /// for a slower disk.
  static let threads = 8
  /// Entries a thread takes at a time: a folder of 100,000 files is shared
  /// by every thread as well as 100 folders of 1,000 are.
  static let statsPerTask = 256

  /// The folder to walk, absolute.
  let root: String

  /// Every regular file under the root, and the entries left out for a
  /// reason worth a log line.
  /// - Throws: `PhotoFolderError.cannotOpen` when the root cannot be opened.
  func walk() throws(PhotoFolderError) -> Walk {
    let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard rootDescriptor >= 0 else { throw .cannotOpen(path: root, errno: errno) }
    defer { close(rootDescriptor) }
    var status = stat()
    guard fstat(rootDescriptor, &status) == 0 else { throw .cannotOpen(path: root, errno: errno) }
    var skipped: [(relativePath: String, reason: String)] = []
    var visited: Set<FolderIdentity> = []
    // The listings of the folders walked, by relative path ("" for the root).
    var walked: [String: Listing] = [:]
    // One depth at a time: its folders are read in parallel and accepted in
    // the order their parents list them (a folder reached twice is walked
    // under the path met first); then the status of every entry of those is
    // read in parallel, whichever folder it is in; and their sub-folders make
    // the next depth.
    var level = [""]
    var depth = 0
    while !level.isEmpty {
      let folders = level
      let readings = ParallelMap.map(folders.count, threads: Self.threads) { index in
        Self.read(folders[index], in: rootDescriptor)
      }
      var accepted: [(folder: String, reading: Reading)] = []
      for (folder, reading) in zip(folders, readings) {
        guard let identity = reading.identity else {
          skipped += reading.skipped  // why it could not be opened
          continue
        }
        guard visited.insert(identity).inserted else {
          // Read for nothing: what it holds is listed under its other path.
          skipped.append((folder, "a folder already walked (a link loop?)"))
          continue
        }
        accepted.append((folder, reading))
      }
      let unknown = accepted.flatMap { $0.reading.entries.filter { $0.kind != DT_DIR } }
      let tasks = (unknown.count + Self.statsPerTask - 1) / Self.statsPerTask
      let statuses = ParallelMap.map(tasks, threads: Self.threads) { task in
        let start = task * Self.statsPerTask
        return unknown[start..<min(start + Self.statsPerTask, unknown.count)].map { entry in
          Self.status(of: entry.path, kind: entry.kind, in: rootDescriptor)
        }
      }.flatMap { $0 }
      var starts: [Int] = []
      var start = 0
      for (_, reading) in accepted {
        starts.append(start)
        start += reading.unknown
      }
      let (walking, firsts) = (accepted, starts)
      let listings = ParallelMap.map(walking.count, threads: Self.threads) { index in
        Self.listing(walking[index].reading, statuses[firsts[index]...])
      }
      level = []
      for ((folder, reading), listing) in zip(accepted, listings) {
        skipped += reading.skipped + listing.skipped
        walked[folder] = listing
        for case .folder(let path) in listing.entries {
          if depth < Self.maxDepth {
            level.append(path)
          } else {
            skipped.append((path, "deeper than \(Self.maxDepth) folders"))
          }
        }
      }
      depth += 1
    }
    var files: [File] = []
    Self.collect("", from: walked, into: &files)
    return Walk(files: files, skipped: skipped)
  }

  /// Appends the files under `folder` to `files`, in `PathOrder`.
  private static func collect(
    _ folder: String, from walked: [String: Listing], into files: inout [File]
  ) {
    guard let listing = walked[folder] else { return }
    for entry in listing.entries {
      switch entry {
      case .file(let file): files.append(file)
      case .folder(let path): collect(path, from: walked, into: &files)
      }
    }
  }

  /// The entries of `folder` (a path under the root, "" for the root), as
  /// `readdir` gives them: a sub-folder's `d_type` spares its `fstatat` (the
  /// folder is opened at the next depth, and its identity read then).
  private static func read(_ folder: String, in rootDescriptor: Int32) -> Reading {
    var reading = Reading()
    let descriptor =
      folder.isEmpty
      ? dup(rootDescriptor) : openat(rootDescriptor, folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      reading.skipped.append(
        (folder, "cannot open the folder: \(PhotoFolderError.reason(errno))"))
      return reading
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, let directory = fdopendir(descriptor) else {
      close(descriptor)
      return reading
    }
    defer { closedir(directory) }
    reading.identity = FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    let prefix = folder.isEmpty ? "" : folder + "/"
    reading.prefixLength = prefix.utf8.count
    while let entry = readdir(directory) {
      let kind = Int(entry.pointee.d_type)
      let name: String? = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: CChar.self, capacity: 256) { name in
          // Hidden entries, ".", ".." are left out without a word.
          guard name[0] != 0x2E else { return "" }
          return String(validatingCString: name)
        }
      }
      guard let name else {
        reading.skipped.append((prefix + "?", "the name is not UTF-8"))
        continue
      }
      if name.isEmpty { continue }
      switch kind {
      case DT_DIR:
        break
      case DT_REG, DT_LNK, DT_UNKNOWN:
        reading.unknown += 1
      default:
        continue  // devices, sockets, pipes
      }
      reading.entries.append((prefix + name, kind))
    }
    return reading
  }

  /// The status of the entry at `path` under the root, of `d_type` `kind`.
  private static func status(of path: String, kind: Int, in rootDescriptor: Int32) -> Status {
    var status = stat()
    // A regular file is not a link: its own status is the one wanted.
    let flags = kind == DT_REG ? AT_SYMLINK_NOFOLLOW : 0
    guard fstatat(rootDescriptor, path, &status, flags) == 0 else { return .failed(errno: errno) }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      return .file(size: Int64(status.st_size), modified: PhotoFiles.modifiedNanoseconds(status))
    case S_IFDIR:
      return .folder
    default:
      return .other
    }
  }

  /// The files and sub-folders of `reading`, given the statuses of its
  /// entries that needed one (in order), sorted.
  private static func listing(_ reading: Reading, _ statuses: ArraySlice<Status>) -> Listing {
    var listing = Listing()
    // The entries, and their names one after the other in `names`: sorting
    // by those bytes costs far less than comparing the entries' strings
    // (`readdir` lists them in no useful order).
    var found: [Entry] = []
    var names: [UInt8] = []
    var keys: [(name: Range<Int>, isFolder: Bool)] = []
    var next = statuses.startIndex
    for (path, kind) in reading.entries {
      var entry = Entry.folder(path)
      if kind != DT_DIR {
        let status = statuses[next]
        next += 1
        switch status {
        case .file(let size, let modified):
          entry = .file(File(relativePath: path, size: size, modified: modified))
        case .folder:
          break
        case .other:
          continue
        case .failed(let code):
          listing.skipped.append(
            (path, "cannot read its status: \(PhotoFolderError.reason(code))"))
          continue
        }
      }
      let start = names.count
      names += path.utf8.dropFirst(reading.prefixLength)  // the name
      found.append(entry)
      keys.append((start..<names.count, entry.isFolder))
    }
    let order = names.withUnsafeBufferPointer { names in
      keys.indices.sorted { a, b in
        precedes(
          UnsafeBufferPointer(rebasing: names[keys[a].name]), keys[a].isFolder,
          UnsafeBufferPointer(rebasing: names[keys[b].name]), keys[b].isFolder)
      }
    }
    listing.entries = order.map { found[$0] }
    return listing
  }

  /// Whether the paths under the entry named `left` come before those under
  /// `right`, two entries of one folder: a file's path ends with its name, a
  /// folder's paths all continue with "/". So "a.png" comes before the folder
  /// "a" ("a/x.png"), since "." is below "/", and the folder "a" before "a0.png".
  private static func precedes(
    _ left: UnsafeBufferPointer<UInt8>, _ leftIsFolder: Bool,
    _ right: UnsafeBufferPointer<UInt8>, _ rightIsFolder: Bool
  ) -> Bool {
    let common = min(left.count, right.count)
    if common > 0, let leftBytes = left.baseAddress, let rightBytes = right.baseAddress {
      let order = memcmp(leftBytes, rightBytes, common)
      if order != 0 { return order < 0 }
    }
    // One name starts the other: what follows the shorter is "/" for a
    // folder, nothing for a file.
    func next(_ name: UnsafeBufferPointer<UInt8>, _ isFolder: Bool) -> Int {
      if name.count > common { return Int(name[common]) }
      return isFolder ? Int(UInt8(ascii: "/")) : -1
    }
    return next(left, leftIsFolder) < next(right, rightIsFolder)
  }
}
