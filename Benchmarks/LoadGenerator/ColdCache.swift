import Glibc

/// Empties the OS caches before a cold figure, so that the daemon reads the
/// disk as it does after a reboot.
enum ColdCache {
  /// How the caches were emptied, for the report.
  enum Method: String {
    /// `sync`, then `3` into `/proc/sys/vm/drop_caches` (root only): page
    /// cache, dentries and inodes, machine-wide.
    case dropCaches = "drop_caches"
    /// `posix_fadvise(POSIX_FADV_DONTNEED)` on each file under the folders:
    /// their data only; directory entries and inodes stay cached, so a cold
    /// figure measured this way is better than a real cold start.
    case fadvise = "posix_fadvise"
  }

  /// Empties the caches: all of them when the bench may (root), else the
  /// data of each file under `folders`.
  static func drop(_ folders: [String]) -> Method {
    sync()
    let fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC)
    if fd >= 0 {
      defer { close(fd) }
      if write(fd, "3\n", 2) == 2 { return .dropCaches }
    }
    for folder in folders { forgetFiles(under: folder) }
    return .fadvise
  }

  /// Asks the kernel to drop the cached data of every file under `path`.
  private static func forgetFiles(under path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    var status = stat()
    if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
      // Written pages must be clean before they can be dropped.
      fdatasync(fd)
      _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    }
    close(fd)
    guard status.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) else { return }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { forgetFiles(under: path + "/" + name) }
    }
  }
}
