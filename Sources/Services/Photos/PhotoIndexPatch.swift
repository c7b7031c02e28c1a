import Glibc

/// What a batch of changed paths changes in the photo index's records, found
/// by looking at those paths only, as a full scan would find them: a `stat`
/// of each, a walk of each that is a folder, the header of each file that is
/// new or whose size or modification time changed. A path that is gone, or is
/// a folder, stands for everything under it too (a folder moved out, renamed,
/// or moved in with its files).
struct PhotoIndexPatch: Sendable {
  /// The records dropped, gone or replaced by one of `insertions`, as they
  /// were; in `PathOrder` of their paths.
  var removals: [(path: String, record: PhotoFileRecord)] = []
  /// The records new or different, in `PathOrder` of their paths.
  var insertions: [(path: String, record: PhotoFileRecord)] = []
  /// Files whose header was read.
  var read = 0
  /// Files skipped among them, and entries left out by the walks of folders.
  var skipped = 0

  var isEmpty: Bool { removals.isEmpty && insertions.isEmpty }

  /// The paths of the records gone (not replaced), for the cache.
  var gone: [String] {
    var gone: [String] = []
    var next = 0
    for (path, _) in removals {
      while next < insertions.count, PathOrder.precedes(insertions[next].path, path) { next += 1 }
      if next < insertions.count, PathOrder.compare(insertions[next].path, path) == 0 { continue }
      gone.append(path)
    }
    return gone
  }

  /// What a path is now.
  private enum Found {
    case file(size: Int64, modified: Int64)
    case folder
    /// Nothing, or nothing the index lists (a device, a broken link, …).
    case nothing
  }

  /// The records of `known` (in `PathOrder`) at or under `paths`, in
  /// `PathOrder`, each once: what `look` compares the files with.
  static func records(
    at paths: [String], in known: [(path: String, record: PhotoFileRecord)]
  ) -> [(path: String, record: PhotoFileRecord)] {
    var records: [(path: String, record: PhotoFileRecord)] = []
    for path in unique(paths.filter(isListable)) {
      let exact = PathOrder.firstPosition(in: known, notBefore: path, path: \.path)
      if exact < known.count, PathOrder.compare(known[exact].path, path) == 0 {
        records.append(known[exact])
      }
      // The records under it (a folder's, or one that was a folder before).
      var under = PathOrder.firstPosition(in: known, notBefore: path + "/", path: \.path)
      while under < known.count, PathOrder.isWithin(known[under].path, folder: path) {
        records.append(known[under])
        under += 1
      }
    }
    records.sort { PathOrder.precedes($0.path, $1.path) }
    return records.enumerated().filter { index, record in
      index == 0 || PathOrder.compare(records[index - 1].path, record.path) != 0
    }.map(\.element)
  }

  /// The patch for `paths` (relative to `folder`, in any order, repeats
  /// allowed), given `recorded`, the index's records at or under them
  /// (`records(at:in:)`). Blocking: runs on a thread of its own. Skipped
  /// files are logged as a scan logs them.
  static func look(
    at paths: [String], folder: String, recorded: [(path: String, record: PhotoFileRecord)],
    log: PhotoLog
  ) -> PhotoIndexPatch {
    var patch = PhotoIndexPatch()
    var skipLines = 0
    func skipped(_ path: String, _ reason: String) {
      patch.skipped += 1
      skipLines += 1
      if skipLines <= PhotoIndex.maxSkipLines {
        log(.info, "photo skipped", ["path": path, "reason": reason])
      }
    }
    // Each path once, in order; a path under one that is gone or a folder
    // is looked at with it.
    var looked: [(path: String, found: Found)] = []
    var covering: [String] = []  // the folders and the gone, in order
    for path in unique(paths.filter(isListable)) {
      if isUnder(path, anyOf: covering) { continue }
      let found = status(folder + "/" + path)
      looked.append((path, found))
      if case .file = found { continue }
      covering.append(path)
    }
    // What is there now; `recorded` tells what was.
    var files: [PhotoFolderWalker.File] = []
    for (path, found) in looked {
      switch found {
      case .file(let size, let modified):
        files.append(PhotoFolderWalker.File(relativePath: path, size: size, modified: modified))
      case .folder:
        do {
          let walk = try PhotoFolderWalker(root: folder + "/" + path).walk()
          let prefix = path + "/"
          for file in walk.files where isListable(prefix + file.relativePath) {
            files.append(
              PhotoFolderWalker.File(
                relativePath: prefix + file.relativePath, size: file.size,
                modified: file.modified))
          }
          for (relativePath, reason) in walk.skipped { skipped(prefix + relativePath, reason) }
        } catch {
          // Gone or unreadable since its `stat`: the records under it go.
        }
      case .nothing:
        break
      }
    }
    files.sort { PathOrder.precedes($0.relativePath, $1.relativePath) }
    let before = recorded
    // Both in order: one pass pairs each file with its record, as a scan does.
    var unknown: [PhotoFolderWalker.File] = []
    var next = 0
    for file in files {
      var order = 1
      while next < before.count {
        order = PathOrder.compare(before[next].path, file.relativePath)
        guard order < 0 else { break }
        patch.removals.append(before[next])  // its file is gone
        next += 1
      }
      if order == 0 {
        let record = before[next]
        next += 1
        if record.record.matches(size: file.size, modified: file.modified) { continue }
        patch.removals.append(record)
      }
      unknown.append(file)
    }
    patch.removals += before[next...]
    let headers = ParallelHeaderReader.read(unknown.map { folder + "/" + $0.relativePath })
    for (file, header) in zip(unknown, headers) {
      let outcome: PhotoFileRecord.Outcome
      switch header {
      case .success(let header):
        outcome = .image(header)
      case .failure(let error):
        outcome = .skipped(reason: error.description)
        skipped(file.relativePath, error.description)
      }
      patch.insertions.append(
        (
          file.relativePath,
          PhotoFileRecord(size: file.size, modified: file.modified, outcome: outcome)
        ))
    }
    patch.read = unknown.count
    patch.removals.sort { PathOrder.precedes($0.path, $1.path) }
    if skipLines > PhotoIndex.maxSkipLines {
      log(.info, "more photos skipped", ["count": String(skipLines - PhotoIndex.maxSkipLines)])
    }
    return patch
  }

  /// Whether a walk of the folder could list a file at `path`: relative,
  /// with no hidden part (a name starting with a dot, "." and ".." too), no
  /// deeper than the walker goes.
  static func isListable(_ path: String) -> Bool {
    var depth = 0
    for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      guard let first = part.first, first != UInt8(ascii: ".") else { return false }
      depth += 1
    }
    return depth <= PhotoFolderWalker.maxDepth + 1
  }

  /// Whether a folder that holds `path` is one of `folders` (in `PathOrder`).
  private static func isUnder(_ path: String, anyOf folders: [String]) -> Bool {
    guard !folders.isEmpty else { return false }
    let bytes = path.utf8
    for slash in bytes.indices where bytes[slash] == UInt8(ascii: "/") {
      let parent = String(path[..<slash])
      let position = PathOrder.firstPosition(in: folders, notBefore: parent) { $0 }
      if position < folders.count, PathOrder.compare(folders[position], parent) == 0 {
        return true
      }
    }
    return false
  }

  /// `paths` in `PathOrder`, each once (by its bytes: two names of one
  /// canonical form are two paths).
  private static func unique(_ paths: [String]) -> [String] {
    let sorted = paths.sorted(by: PathOrder.precedes)
    var unique: [String] = []
    unique.reserveCapacity(sorted.count)
    for path in sorted where unique.last.map({ PathOrder.compare($0, path) != 0 }) ?? true {
      unique.append(path)
    }
    return unique
  }

  /// What is at `path` (absolute), links followed as the walker follows them.
  private static func status(_ path: String) -> Found {
    guard let status = PhotoFiles.status(path) else { return .nothing }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      return .file(size: Int64(status.st_size), modified: PhotoFiles.modifiedNanoseconds(status))
    case S_IFDIR:
      return .folder
    default:
      return .nothing
    }
  }
}
