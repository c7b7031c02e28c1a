import Glibc

/// Lists the regular files under a folder, recursively, with their size and
/// modification time: `opendir`/`readdir` and one `fstatat` per file, no file
/// opened. Hidden entries (a name starting with a dot) are left out, symbolic
/// links are followed, and a folder reached twice (a link loop, or two links
/// to one folder) is walked once.
///
/// The folders of one depth are read by several threads at once: with the
/// directory entries and inodes out of the cache, each `fstatat` costs the
/// kernel a search of the directory's block and an inode read (about 8 µs of
/// CPU on the development VM, by `perf`; 1.1–1.5 s for 100,000 files on one
/// thread), so threads put every core to it and keep reads in flight. Then
/// the folders found are taken in a fixed order, so the result does not
/// depend on which thread finished first.
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

  /// What reading one folder found.
  private struct Listing: Sendable {
    /// The opened folder's identity; nil when it could not be opened.
    var identity: FolderIdentity?
    /// Its files and sub-folders, ordered so that the paths under them follow
    /// `PathOrder` (see `precedes`).
    var entries: [Entry] = []
    var skipped: [(relativePath: String, reason: String)] = []
  }

  /// Folders deeper than this are not walked.
  static let maxDepth = 64
  /// Folders read at once. On the development VM a cold walk is bound by the
  /// kernel's lookups on 2 cores, not by the disk: 100,000 files in 100
  /// folders took 0.65–0.94 s with 4, 8 or 16 threads alike (1.1–1.5 s on one).
  /// 8 keeps more inode reads in flight for a slower disk.
  static let threads = 8

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
    // One depth at a time: its folders are read in parallel, then accepted in
    // the order their parents list them (a folder reached twice is walked
    // under the path met first), and their sub-folders make the next depth.
    var level = [""]
    var depth = 0
    while !level.isEmpty {
      let folders = level
      let listings = ParallelMap.map(folders.count, threads: Self.threads) { index in
        Self.list(folders[index], in: rootDescriptor)
      }
      level = []
      for (folder, listing) in zip(folders, listings) {
        guard let identity = listing.identity else {
          skipped += listing.skipped  // why it could not be opened
          continue
        }
        guard visited.insert(identity).inserted else {
          // Read for nothing: what it holds is listed under its other path.
          skipped.append((folder, "a folder already walked (a link loop?)"))
          continue
        }
        skipped += listing.skipped
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

  /// The entries of `folder` (a path under the root, "" for the root) and
  /// their status. A sub-folder's entry (`d_type`) spares its `fstatat`: the
  /// folder is opened at the next depth, and its identity read then.
  private static func list(_ folder: String, in rootDescriptor: Int32) -> Listing {
    var listing = Listing()
    func skipped(_ path: String, _ reason: String) {
      listing.skipped.append((path, reason))
    }
    let descriptor =
      folder.isEmpty
      ? dup(rootDescriptor) : openat(rootDescriptor, folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      skipped(folder, "cannot open the folder: \(PhotoFolderError.reason(errno))")
      return listing
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, let directory = fdopendir(descriptor) else {
      close(descriptor)
      return listing
    }
    defer { closedir(directory) }
    listing.identity = FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    let prefix = folder.isEmpty ? "" : folder + "/"
    // The entries as found (`readdir` lists them in no useful order), and
    // their names one after the other in `names`: sorting by those bytes
    // costs far less than comparing the entries' strings.
    var found: [Entry] = []
    var names: [UInt8] = []
    var keys: [(name: Range<Int>, isFolder: Bool)] = []
    func add(_ entry: Entry, _ name: String) {
      let start = names.count
      names += name.utf8
      found.append(entry)
      keys.append((start..<names.count, entry.isFolder))
    }
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
        skipped(prefix + "?", "the name is not UTF-8")
        continue
      }
      if name.isEmpty { continue }
      let path = prefix + name
      switch kind {
      case DT_DIR:
        add(.folder(path), name)
        continue
      case DT_REG, DT_LNK, DT_UNKNOWN:
        break
      default:
        continue  // devices, sockets, pipes
      }
      var status = stat()
      // A regular file is not a link: its own status is the one wanted.
      let flags = kind == DT_REG ? AT_SYMLINK_NOFOLLOW : 0
      guard fstatat(descriptor, name, &status, flags) == 0 else {
        skipped(path, "cannot read its status: \(PhotoFolderError.reason(errno))")
        continue
      }
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        let file = File(
          relativePath: path, size: Int64(status.st_size),
          modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        add(.file(file), name)
      case S_IFDIR:
        add(.folder(path), name)
      default:
        continue  // devices, sockets, pipes
      }
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
