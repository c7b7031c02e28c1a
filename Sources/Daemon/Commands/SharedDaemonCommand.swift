import Dispatch
import Protocol
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd serve --listen PATH`: one daemon for many clients. Each
/// connection to the Unix socket hands a client's stdio over and is a
/// session of its own (`ForwardedSession`: initialize, feeds, cancellation,
/// shutdown and exit end that session only), while the
/// services are shared: one catalog, one place index, one photo index. Only
/// the user who runs the daemon may connect. With no session left for
/// `--idle-timeout` seconds, the daemon removes its socket and exits.
enum SharedDaemonCommand {
  static func run(_ configuration: Configuration, socketPath: String) -> Never {
    let listener: Int32
    do {
      listener = try UnixSocket.listen(path: socketPath)
    } catch {
      fail(error.description)
    }
    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    let idle = IdleExit(
      timeout: configuration.idleTimeoutSeconds, socketPath: socketPath, listener: listener)
    Log.info(
      "catalogd started",
      [
        "version": Version.current, "dataDir": configuration.dataDirectory,
        "pid": String(getpid()), "listen": socketPath,
      ])
    idle.sessionEnded()
    while let client = UnixSocket.accept(listener) {
      guard let peer = PeerCredentials.of(client), peer.uid == geteuid() else {
        let who = PeerCredentials.of(client).map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown"
        Log.warn("refused a connection from another user", ["peer": who])
        close(client)
        continue
      }
      idle.connectionAccepted()
      startThread {
        ForwardedSession.serve(control: client, peerProcess: peer.pid, daemon: daemon)
        idle.sessionEnded()
      }
    }
    Log.error("the listening socket failed; exiting", ["errno": String(errno)])
    unlink(socketPath)
    exit(1)
  }
}

/// Exits a shared daemon that has had no session for its idle timeout. A
/// timer starts whenever the last session ends; a connection accepted since
/// (counted before its session exists) makes that timer's check fail.
///
/// A client may connect in the moment the daemon decides to go: so the
/// socket's name is removed first (new clients then start a new daemon), and
/// a connection already waiting in the listener's queue is still served; the
/// daemon exits once that session ends too.
final class IdleExit: Sendable {
  private let timeout: Int
  private let socketPath: String
  private let listener: Int32
  /// Connections accepted and not yet ended, a count of every change, and
  /// whether the socket's name is gone (it may be another daemon's by now).
  private let state = Mutex((open: 0, generation: 0, unlinked: false))

  init(timeout: Int, socketPath: String, listener: Int32) {
    self.timeout = timeout
    self.socketPath = socketPath
    self.listener = listener
  }

  func connectionAccepted() {
    state.withLock {
      $0.open += 1
      $0.generation += 1
    }
  }

  /// A session ended (or the daemon started with none): when none is left,
  /// the daemon exits after the timeout unless a connection comes first.
  func sessionEnded() {
    let (open, generation) = state.withLock {
      $0.open = max(0, $0.open - 1)
      $0.generation += 1
      return ($0.open, $0.generation)
    }
    guard open == 0 else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) { [self] in
      // Checked and acted on under the lock, so no connection is counted in between.
      state.withLock {
        guard $0.open == 0, $0.generation == generation else { return }
        if !$0.unlinked {
          unlink(socketPath)
          $0.unlinked = true
        }
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 0) <= 0 else {
          Log.info("a client connected as the idle timeout ended; serving it before exiting")
          return
        }
        Log.info("no session for the idle timeout; exiting", ["seconds": String(timeout)])
        exit(0)
      }
    }
  }
}
