#if canImport(Glibc)
  import Glibc
#endif

/// The folder of the shared daemons' sockets (with their lock files and
/// logs): `$XDG_RUNTIME_DIR/catalogd`, else `/tmp/catalogd-<uid>`.
///
/// Only its owner may enter it (mode 0700), which is what keeps other users
/// off the sockets. In `/tmp` anyone may have made the folder first, so it
/// is checked before every use, never repaired: a folder of another user's,
/// or a symbolic link, may be an attempt to catch sessions.
enum SocketDirectory {
  static func forUser(environment: [String: String]) throws(RemoteError) -> String {
    let path = chosenPath(environment: environment)
    try prepare(path)
    return path
  }

  /// `$XDG_RUNTIME_DIR/catalogd` when that variable names a folder of this
  /// user's (the session manager made it private), else `/tmp/catalogd-<uid>`.
  static func chosenPath(environment: [String: String]) -> String {
    let uid = geteuid()
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      var status = stat()
      if stat(runtime, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == uid {
        let trimmed = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
        return trimmed + "/catalogd"
      }
    }
    return "/tmp/catalogd-\(uid)"
  }

  /// Creates the folder (mode 0700) unless it exists, then checks it.
  static func prepare(_ path: String) throws(RemoteError) {
    if mkdir(path, 0o700) == 0 {
      // Made just now, so ours: only a umask can have taken bits from it.
      var status = stat()
      if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
        status.st_uid == geteuid(), status.st_mode & 0o7777 != 0o700
      {
        chmod(path, 0o700)
      }
    } else if errno != EEXIST {
      throw .system(call: "create the socket folder", path: path, errno: errno)
    }
    try verify(path)
  }

  /// Refuses a folder that is not a real folder (a symbolic link above
  /// all), not owned by this user, or open to anyone else.
  static func verify(_ path: String) throws(RemoteError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      throw .system(call: "inspect the socket folder", path: path, errno: errno)
    }
    let elsewhere = "or set XDG_RUNTIME_DIR to a private folder of your own"
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      break
    case S_IFLNK:
      throw .unsafeDirectory(
        path: path,
        problem: "\(path) is a symbolic link, not a folder: another process may be trying to "
          + "catch catalogd's sessions, so it is not used; remove it (rm \(path)), \(elsewhere)")
    default:
      throw .unsafeDirectory(
        path: path, problem: "\(path) is not a folder: remove it, \(elsewhere)")
    }
    let uid = geteuid()
    guard status.st_uid == uid else {
      throw .unsafeDirectory(
        path: path,
        problem: "\(path) belongs to uid \(status.st_uid), not to you (uid \(uid)): another "
          + "user may be trying to catch catalogd's sessions, so it is not used; have that user "
          + "or root remove it, \(elsewhere)")
    }
    let mode = status.st_mode & 0o7777
    guard mode == 0o700 else {
      let octal = String(mode, radix: 8)
      throw .unsafeDirectory(
        path: path,
        problem: "\(path) has mode \(String(repeating: "0", count: 4 - octal.count) + octal), "
          + "not 0700: other users could reach the sockets in it; run chmod 700 \(path)")
    }
  }

  /// `<directory>/<16 hex digits>.sock`: the digits are a hash of what makes
  /// a daemon serve other data (see `identity`), so configurations that
  /// differ never share a daemon, and equal ones always find the same.
  static func socketPath(for configuration: Configuration, in directory: String) -> String {
    let hash = fnv1a(identity(of: configuration, workingDirectory: currentDirectory()))
    let hex = String(hash, radix: 16)
    return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".sock"
  }

  /// The lock file that lets one forwarder at a time start the daemon of `socketPath`.
  static func lockPath(forSocket socketPath: String) -> String {
    sibling(of: socketPath, suffix: ".lock")
  }

  /// Where the daemon of `socketPath` writes its stderr.
  static func logPath(forSocket socketPath: String) -> String {
    sibling(of: socketPath, suffix: ".log")
  }

  private static func sibling(of socketPath: String, suffix: String) -> String {
    (socketPath.hasSuffix(".sock") ? String(socketPath.dropLast(5)) : socketPath) + suffix
  }

  /// The settings that decide what a daemon serves and from where, each as
  /// `name=<byte count>:<value>` (or `name-` when unset) on its own line, so
  /// that no two configurations spell the same text. Folders are made
  /// absolute and standardized first: `./data` and `/home/me/data/` are the
  /// same folder. The version keeps a new catalogd from talking to an old daemon.
  static func identity(of configuration: Configuration, workingDirectory: String) -> [UInt8] {
    let fields: [(String, String?)] = [
      ("version", Version.current),
      ("dataDirectory", standardized(configuration.dataDirectory, in: workingDirectory)),
      (
        "photosDirectory",
        configuration.photosDirectory.map { standardized($0, in: workingDirectory) }
      ),
      ("databaseURL", configuration.databaseURL),
      ("serverURL", configuration.serverURL),
      ("quotesURL", configuration.quotesURL),
      ("photosURL", configuration.photosURL),
      ("placesURL", configuration.placesURL),
      ("kakaoRestAPIKey", configuration.kakaoRestAPIKey),
      ("upstreamTimeoutMilliseconds", String(configuration.upstreamTimeoutMilliseconds)),
    ]
    var text: [UInt8] = []
    for (name, value) in fields {
      text += name.utf8
      if let value {
        text += "=\(value.utf8.count):".utf8
        text += value.utf8
      } else {
        text.append(UInt8(ascii: "-"))
      }
      text.append(UInt8(ascii: "\n"))
    }
    return text
  }

  /// `path` absolute (relative to `directory`), without `.`, `..`, repeated
  /// or trailing slashes. Symbolic links are left alone: the folder may not exist yet.
  static func standardized(_ path: String, in directory: String) -> String {
    let absolute = path.hasPrefix("/") ? path : directory + "/" + path
    var parts: [Substring] = []
    for part in absolute.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// 64-bit FNV-1a: stable across runs and builds, unlike `Hasher`, which is seeded per process.
  static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  private static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
