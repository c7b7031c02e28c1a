import Glibc

/// Lists the regular files under a folder, recursively, with their size and
/// modification time: `opendir`/`readdir` and one `fstatat` per file, no file
/// opened. Hidden entries (a name starting with a dot) are left out, symbolic
/// links are followed, and a folder reached twice (a link loop, or two links
/// to one folder) is walked once.
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
    /// Every regular file, in no particular order.
    var files: [File] = []
    /// Entries left out for a reason worth a log line, with that reason.
    var skipped: [(relativePath: String, reason: String)] = []
  }

  /// A device and inode: the identity of a folder.
  private struct FolderIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
  }

  /// Folders deeper than this are not walked.
  static let maxDepth = 64

  /// The folder to walk, absolute.
  let root: String

  /// Every regular file under the root, and the entries left out for a
  /// reason worth a log line.
  /// - Throws: `PhotoFolderError.cannotOpen` when the root cannot be opened.
  func walk() throws(PhotoFolderError) -> Walk {
    var skippedEntries: [(relativePath: String, reason: String)] = []
    func skipped(_ path: String, _ reason: String) {
      skippedEntries.append((path, reason))
    }
    let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard rootDescriptor >= 0 else { throw .cannotOpen(path: root, errno: errno) }
    defer { close(rootDescriptor) }
    var status = stat()
    guard fstat(rootDescriptor, &status) == 0 else { throw .cannotOpen(path: root, errno: errno) }
    var visited: Set<FolderIdentity> = [Self.identity(status)]
    var files: [File] = []
    // Folders still to walk, by relative path ("" for the root): opened when
    // their turn comes, so a wide tree never holds many descriptors.
    var pending: [(path: String, depth: Int)] = [("", 0)]
    while let (folder, depth) = pending.popLast() {
      let descriptor =
        folder.isEmpty
        ? dup(rootDescriptor) : openat(rootDescriptor, folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else {
        skipped(folder, "cannot open the folder: \(PhotoFolderError.reason(errno))")
        continue
      }
      guard let directory = fdopendir(descriptor) else {
        close(descriptor)
        continue
      }
      defer { closedir(directory) }
      let prefix = folder.isEmpty ? "" : folder + "/"
      while let entry = readdir(directory) {
        let kind = entry.pointee.d_type
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
        var status = stat()
        // A regular file is not a link: its own status is the one wanted.
        let flags = Int32(kind) == DT_REG ? AT_SYMLINK_NOFOLLOW : 0
        guard fstatat(descriptor, name, &status, flags) == 0 else {
          skipped(path, "cannot read its status: \(PhotoFolderError.reason(errno))")
          continue
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
          files.append(
            File(
              relativePath: path, size: Int64(status.st_size),
              modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000
                + Int64(status.st_mtim.tv_nsec)))
        case S_IFDIR:
          guard visited.insert(Self.identity(status)).inserted else {
            skipped(path, "a folder already walked (a link loop?)")
            continue
          }
          guard depth < Self.maxDepth else {
            skipped(path, "deeper than \(Self.maxDepth) folders")
            continue
          }
          pending.append((path, depth + 1))
        default:
          continue  // devices, sockets, pipes
        }
      }
    }
    return Walk(files: files, skipped: skippedEntries)
  }

  private static func identity(_ status: stat) -> FolderIdentity {
    FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }
}
