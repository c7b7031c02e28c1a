import Glibc

/// Small file operations of the photos service, on Glibc.
enum PhotoFiles {
  /// Writes `bytes` to a new file at `path` (replacing one), all or nothing
  /// for the caller: a failure removes what was written and throws.
  static func write(_ bytes: [UInt8], to path: String) throws(PhotoFolderError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotWrite(path: path, errno: errno) }
    var written = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let result = Glibc.write(
          descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        written += result
      }
    }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    guard failure == 0 else {
      unlink(path)
      throw .cannotWrite(path: path, errno: failure)
    }
  }

  /// Makes the folder `path` and its missing parents (`mkdir -p`).
  static func makeDirectories(_ path: String) throws(PhotoFolderError) {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o755) != 0, errno != EEXIST {
        throw .cannotCreate(path: current, errno: errno)
      }
    }
  }

  /// `stat(2)` of `path`, following symbolic links; nil when it fails.
  static func status(_ path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
  }

  /// When the file of `status` was last modified, in nanoseconds since the epoch.
  static func modifiedNanoseconds(_ status: stat) -> Int64 {
    Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
  }

  /// `path` made absolute against the working directory (not resolved).
  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let directory = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (directory == "/" ? "" : directory) + "/" + path
  }
}
