#if canImport(Glibc)
  import Glibc
#endif

/// A connection to the shared daemon that a `--remote` setting names,
/// checked to be served by this user: for `--remote=PATH` the socket may lie
/// in a folder others can write to, and a session must not go to their process.
struct RemoteConnection: Sendable {
  /// The connected socket.
  let fd: Int32
  /// Where the daemon listens, for messages.
  let socketPath: String
  /// The daemon's log, when this process knows it (`--remote=auto`).
  let logPath: String?

  static func open(
    _ target: RemoteTarget, configuration: Configuration, arguments: [String],
    environment: [String: String]
  ) throws(RemoteError) -> RemoteConnection {
    let connection: RemoteConnection
    switch target {
    case .auto:
      let directory = try SocketDirectory.forUser(environment: environment)
      let socket = SocketDirectory.socketPath(for: configuration, in: directory)
      let fd = try SharedDaemonStarter.connect(
        socket: socket, configuration: configuration, arguments: arguments,
        environment: environment)
      connection = RemoteConnection(
        fd: fd, socketPath: socket, logPath: SocketDirectory.logPath(forSocket: socket))
    case .socket(let path):
      connection = RemoteConnection(
        fd: try UnixSocket.connect(path: path), socketPath: path, logPath: nil)
    }
    guard let peer = PeerCredentials.of(connection.fd), peer.uid == geteuid() else {
      let uid = PeerCredentials.of(connection.fd)?.uid ?? UInt32.max
      close(connection.fd)
      throw .foreignDaemon(path: connection.socketPath, uid: uid)
    }
    return connection
  }
}
