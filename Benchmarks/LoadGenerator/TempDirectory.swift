import Glibc

/// A fresh directory under `$TMPDIR` (else /tmp), removed with its contents when released, so
/// every daemon starts on an empty data dir and leaves nothing behind.
final class TempDirectory {
  let path: String

  init() throws {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/catalogd-bench.XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw BenchError.system(call: "mkdtemp", errno: errno) }
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit { removeTree(path) }
}

/// Removes `path` and, if it is a directory, everything in it; links are removed, not followed.
/// (Glibc's `nftw` is not visible from Swift.)
func removeTree(_ path: String) {
  guard unlink(path) != 0, errno == EISDIR, let directory = opendir(path) else { return }
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { removeTree(path + "/" + name) }
  }
  closedir(directory)
  rmdir(path)
}
