import Glibc
import Services

/// One catalogd under test: spawned on a fresh data dir, initialized, and at the end shut down
/// the way a language client does it, which is checked down to exit status 0.
final class DaemonSession {
  let process: DaemonProcess
  let reader: ReplyReader
  let framing: Framing
  /// From posix_spawn to the initialize reply read, in nanoseconds.
  private(set) var startNanoseconds: UInt64 = 0
  /// Kills the daemon if the session outlives `timeoutSeconds`.
  private let watchdog: Watchdog
  private let timeoutSeconds: Int
  private let dataDirectory: TempDirectory

  /// `arguments` follow the daemon's own (a forwarder's `--remote SOCKET`).
  init(
    binary: String, framing: Framing, watchdog: Watchdog, timeoutSeconds: Int,
    arguments: [String] = []
  ) throws {
    dataDirectory = try TempDirectory()
    process = try DaemonProcess(
      executable: binary,
      arguments: ["--data-dir", dataDirectory.path, "--log-level", "error"] + arguments)
    watchdog.watch(process.pid, seconds: timeoutSeconds)
    reader = ReplyReader(fd: process.output, framing: framing)
    self.framing = framing
    self.watchdog = watchdog
    self.timeoutSeconds = timeoutSeconds
    try guarded {
      try send(Request.initialize)
      var tally = ReplyTally(ids: Request.initializeID...Request.initializeID)
      try reader.read(replies: 1, into: &tally)
      startNanoseconds = monotonicNanoseconds() - process.spawnedAt
      try tally.verify()
      try send(Request.initialized)
    }
  }

  /// Writes one message, framed.
  func send(_ message: String) throws {
    var bytes: [UInt8] = []
    framing.append(message, to: &bytes)
    try bytes.withUnsafeBytes { try writeAll(process.input, $0) }
  }

  /// Runs `body`; if it fails, see `failure(_:)`.
  func guarded<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw failure(error)
    }
  }

  /// Kills the daemon, which may be stuck (a writer blocked on its stdin then gets EPIPE), and
  /// reports a timeout rather than the end of file that follows the watchdog's kill.
  func failure(_ error: any Error) -> any Error {
    process.kill()
    return watchdog.killed(process.pid) ? BenchError.timedOut(seconds: timeoutSeconds) : error
  }

  /// `shutdown`, its reply, `exit`, end of input, end of output, exit status 0. Exit waits for
  /// the shutdown reply because requests run concurrently and exit before shutdown means 1.
  func shutdown() throws {
    try guarded {
      try send(Request.shutdown)
      var tally = ReplyTally(ids: Request.shutdownID...Request.shutdownID)
      try reader.read(replies: 1, into: &tally)
      try tally.verify()
      try send(Request.exit)
      process.closeInput()
      try reader.drainToEnd()
      let status = try process.wait()
      guard status == 0 else { throw BenchError.badExit(waitStatus: status) }
    }
  }

  deinit {
    // The daemon must be gone before its data dir is removed.
    process.terminate()
    watchdog.release(process.pid)
  }
}
