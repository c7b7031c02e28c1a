#if canImport(Glibc)
  import Glibc
#endif

/// Where the running catalogd's binary is, so a forwarder can start the
/// shared daemon from the same build: `argv[0]` may be a bare name found on
/// a PATH the daemon's environment does not share, or relative to a folder
/// the process has left.
///
/// Linux-only (`/proc/self/exe`): a macOS port asks `_NSGetExecutablePath`
/// here, and nowhere else.
enum ExecutablePath {
  static func current() throws(RemoteError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else {
      throw .system(call: "read the executable's path from", path: "/proc/self/exe", errno: errno)
    }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // The binary was replaced while this process ran (an upgrade): the new
    // one at the same path is the one to start.
    let deleted = " (deleted)"
    if path.hasSuffix(deleted) {
      let replaced = String(path.dropLast(deleted.count))
      if access(replaced, X_OK) == 0 { return replaced }
    }
    return path
  }
}
