import Glibc
import Synchronization

/// Listens to one channel on a connection and a thread of its own, and keeps
/// listening: when the connection breaks or cannot be made, it connects again
/// with a growing pause (0.1 s doubling to 5 s) and, once back, reports
/// `.reconnected`: notifications sent meanwhile are lost.
final class PostgresListener: Sendable {
  enum Event: Sendable, Hashable {
    /// The first attempt to listen ended: listening, or it failed (and goes on trying).
    case started
    /// A notification's payload.
    case notification(String)
    /// Listening again after a broken or failed connection; anything may have been missed.
    case reconnected
  }

  private let url: String
  private let channel: String
  private let isStopped = Atomic<Bool>(false)

  /// - Parameter channel: a plain identifier (it is part of `LISTEN`).
  init(url: String, channel: String) {
    precondition(channel.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") })
    self.url = url
    self.channel = channel
  }

  /// Starts listening on a new thread; `onEvent` runs on that thread.
  /// `onFailure` gets each failure to connect or listen (for the log).
  func start(
    onEvent: @escaping @Sendable (Event) -> Void,
    onFailure: @escaping @Sendable (PostgresError) -> Void = { _ in }
  ) {
    _ = DedicatedThread.start { [self] in run(onEvent, onFailure) }
  }

  /// Ends the thread within about half a second.
  func stop() { isStopped.store(true, ordering: .relaxed) }

  private func run(
    _ onEvent: @Sendable (Event) -> Void, _ onFailure: @Sendable (PostgresError) -> Void
  ) {
    var pause = 0.1
    // A failure to connect counts too: a client that met errors meanwhile reloads.
    var hadFailure = false
    var isFirstAttempt = true
    while !isStopped.load(ordering: .relaxed) {
      do {
        let session = try PostgresSession(
          url: url, applicationName: "catalogd listener", connectTimeoutSeconds: 5)
        try session.execute("LISTEN \(channel)")
        pause = 0.1
        if hadFailure { onEvent(.reconnected) }
        hadFailure = false
        if isFirstAttempt { onEvent(.started) }
        isFirstAttempt = false
        try listen(on: session, onEvent)
      } catch {
        hadFailure = true
        onFailure(error)
        if isFirstAttempt { onEvent(.started) }
        isFirstAttempt = false
        sleepInSlices(seconds: pause)
        pause = min(pause * 2, 5)
      }
    }
  }

  /// Delivers notifications until the connection breaks or `stop` is called.
  private func listen(on session: PostgresSession, _ onEvent: @Sendable (Event) -> Void)
    throws(PostgresError)
  {
    var descriptor = pollfd(fd: session.socket, events: Int16(POLLIN), revents: 0)
    while !isStopped.load(ordering: .relaxed) {
      descriptor.revents = 0
      guard poll(&descriptor, 1, 500) >= 0 || errno == EINTR else {
        throw PostgresError(kind: .connection, message: "poll failed: errno \(errno)")
      }
      guard session.isHealthy else {
        throw PostgresError(kind: .connection, message: "the listening connection broke")
      }
      for notification in session.notifications() { onEvent(.notification(notification.payload)) }
    }
  }

  /// Sleeps, checking `stop` every 100 ms.
  private func sleepInSlices(seconds: Double) {
    var left = seconds
    while left > 0, !isStopped.load(ordering: .relaxed) {
      usleep(UInt32(min(left, 0.1) * 1_000_000))
      left -= 0.1
    }
  }
}
