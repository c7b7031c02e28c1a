#if canImport(Glibc)
  import Glibc
#endif

/// Why a shared daemon could not be listened on, reached or started: each
/// message names the path and says what to do about it.
enum RemoteError: Error, CustomStringConvertible, Equatable {
  /// A socket path longer than `sockaddr_un` holds.
  case pathTooLong(path: String, limit: Int)
  /// A daemon answers on the path already.
  case alreadyServing(String)
  /// The path exists and is no socket, so it is not ours to replace.
  case notASocket(String)
  /// Nothing listens on the path: no file, or a socket nobody accepts on.
  case notListening(String)
  /// The socket's listener runs as another user: the session must not go to it.
  case foreignDaemon(path: String, uid: UInt32)
  /// The socket folder is not a private folder of this user.
  case unsafeDirectory(path: String, problem: String)
  /// A daemon was started but never listened; `detail` says what happened,
  /// `logTail` is the end of what it wrote.
  case daemonDidNotStart(socket: String, log: String, detail: String, logTail: String)
  /// The daemon closed the connection before it answered.
  case closedBeforeAnswering(String)
  /// A system call failed on `path`.
  case system(call: String, path: String, errno: Int32)

  var description: String {
    switch self {
    case .pathTooLong(let path, let limit):
      return "the socket path \(path) is \(path.utf8.count) bytes long, but a Unix socket path "
        + "may have at most \(limit): choose a shorter one"
    case .alreadyServing(let path):
      return "a catalogd already serves on \(path): reach it with --remote=\(path), "
        + "or stop it before starting another"
    case .notASocket(let path):
      return "\(path) exists and is not a Unix socket: choose another path, or remove it"
    case .notListening(let path):
      return "no catalogd listens on \(path): start one with catalogd serve --listen \(path), "
        + "or use --remote=auto"
    case .foreignDaemon(let path, let uid):
      return "the socket \(path) is served by uid \(uid), not by you (uid \(geteuid())): "
        + "refusing to send the session to another user's process"
    case .unsafeDirectory(_, let problem):
      return problem
    case .daemonDidNotStart(let socket, let log, let detail, let logTail):
      let tail = logTail.isEmpty ? "it wrote nothing to \(log)" : "\(log) ends with:\n\(logTail)"
      return "the shared catalogd did not start listening on \(socket) (\(detail)); \(tail)"
    case .closedBeforeAnswering(let path):
      return "the shared catalogd at \(path) closed the connection before answering; try again"
    case .system(let call, let path, let code):
      return "cannot \(call) \(path): \(String(cString: strerror(code)))"
    }
  }
}
