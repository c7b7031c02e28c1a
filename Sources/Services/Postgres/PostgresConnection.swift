import Glibc

/// The one owner of one PostgreSQL connection, and the only way a service
/// reaches the database.
///
/// The actor runs on its own thread (`ThreadExecutor`): libpq calls block.
/// It connects at the first call and again whenever the connection is found
/// broken, so a database that was down serves again as soon as it is back.
/// `readStatements` sends statements on their own; `write` runs a transaction,
/// run again from its start when it lost a serialization or deadlock race.
actor PostgresConnection {
  /// Runs once on every new session, before it serves (settings, migrations).
  typealias Configure = @Sendable (PostgresSession) throws -> Void

  private let url: String
  private let applicationName: String
  private let connectTimeoutSeconds: Int
  private let configure: Configure
  private let executor: ThreadExecutor
  private var session: PostgresSession?
  /// How many times a transaction that lost a race runs again.
  private let transientRetries = 5

  init(
    url: String, applicationName: String = "catalogd", connectTimeoutSeconds: Int = 5,
    configure: @escaping Configure = { _ in }
  ) throws {
    guard let executor = ThreadExecutor() else {
      throw PostgresError(kind: .connection, message: "could not start a thread for PostgreSQL")
    }
    self.url = url
    self.applicationName = applicationName
    self.connectTimeoutSeconds = max(connectTimeoutSeconds, 1)
    self.configure = configure
    self.executor = executor
  }

  deinit { executor.stop() }

  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The session, connected (again) if there is none or it broke.
  private func connected() throws -> PostgresSession {
    if let session, session.isHealthy { return session }
    session = nil
    let made = try PostgresSession(
      url: url, applicationName: applicationName, connectTimeoutSeconds: connectTimeoutSeconds)
    try configure(made)
    session = made
    return made
  }

  /// Runs `body`, which sends read-only statements, outside any transaction:
  /// each is one round trip (where a transaction adds `BEGIN` and `COMMIT`)
  /// and sees one snapshot of its own, so what must agree goes in one
  /// statement. When the connection turns out broken, nothing was changed:
  /// `body` runs once more, from its start, on a new connection.
  func readStatements<T: Sendable>(_ body: (PostgresSession) throws -> T) throws -> T {
    do {
      return try body(try connected())
    } catch let error as PostgresError where error.kind == .connection {
      session = nil
      return try body(try connected())
    }
  }

  /// Runs `body` in a READ COMMITTED transaction, committed before this
  /// returns. When the body loses a serialization or deadlock race, the whole
  /// transaction runs again (up to `transientRetries` times). When the
  /// connection breaks at `COMMIT`, whether it committed is unknown: the error
  /// is thrown, and nothing was acknowledged.
  func write<T: Sendable>(_ body: (PostgresSession) throws -> T) throws -> T {
    try transaction("BEGIN", body)
  }

  private func transaction<T>(_ begin: String, _ body: (PostgresSession) throws -> T) throws -> T {
    var attempt = 0
    while true {
      attempt += 1
      let session = try connected()
      if let failure = Self.failure(of: { () throws(PostgresError) in try session.execute(begin) })
      {
        // A BEGIN that failed for want of a server ran nothing: safe to send
        // again on a new connection, once.
        self.session = nil
        if failure.isUnavailable && attempt == 1 { continue }
        throw failure
      }
      do {
        let result = try body(session)
        try session.execute("COMMIT")
        return result
      } catch {
        let failure = error as? PostgresError
        if failure?.kind == .connection {
          self.session = nil
          throw error
        }
        _ = try? session.execute("ROLLBACK")
        guard failure?.isTransient == true, attempt <= transientRetries else { throw error }
        pauseBeforeRetry(attempt)
      }
    }
  }

  /// The error `body` throws, if any.
  private static func failure(of body: () throws(PostgresError) -> Void) -> PostgresError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  /// A short random pause before a lost race is run again, so the racers part.
  private func pauseBeforeRetry(_ attempt: Int) {
    usleep(UInt32.random(in: 1_000...5_000) * UInt32(attempt))
  }
}
