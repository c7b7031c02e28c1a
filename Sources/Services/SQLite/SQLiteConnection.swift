/// The one owner of one `SQLiteDatabase`, and the only way services touch it.
///
/// The actor runs on its own thread (`ThreadExecutor`), never on Swift's
/// cooperative pool: SQLite calls block. Calls are serialized; each `read` runs
/// in a DEFERRED transaction (one consistent snapshot), each `write` in an
/// IMMEDIATE one, and `writeBatched` shares one durable commit among the
/// writers that arrive together.
///
/// The file opens lazily, on the thread, at the first call (or `open()`), and
/// `configure` runs then (migrations, pragmas). A failed open throws from that
/// call and is tried again by the next one.
public actor SQLiteConnection {
  /// The database file.
  public nonisolated let path: String
  /// The thread every call runs on.
  private let executor: ThreadExecutor
  /// How to open the file.
  private let options: SQLiteDatabase.Options
  /// Runs once after the file opened (migrations, pragmas).
  private let configure: @Sendable (SQLiteDatabase) throws -> Void
  /// How many more times a write tries `BEGIN IMMEDIATE` after `SQLITE_BUSY`.
  private let busyRetries: Int
  /// The most bodies `writeBatched` puts in one transaction.
  private let maxBatchSize: Int
  /// The open database; nil before the first call and after `close()`.
  private var database: SQLiteDatabase?
  /// Set by `close()`: later calls throw.
  private var isClosed = false
  /// Bodies of `writeBatched` waiting for the next group commit.
  private var pendingWrites: [any SQLiteBatchedWrite] = []
  /// Whether a group commit is scheduled (it takes every pending write).
  private var isCommitScheduled = false

  /// A connection to the file at `path` (created unless read-only). Nothing is
  /// opened yet; the thread starts.
  ///
  /// - Parameters:
  ///   - busyRetries: how many more times a write tries to begin after
  ///     `SQLITE_BUSY` outlasted the busy timeout, with a short backoff.
  ///   - maxBatchSize: the most `writeBatched` bodies in one transaction.
  ///   - configure: runs on the thread right after the file opened.
  public init(
    path: String, options: SQLiteDatabase.Options = SQLiteDatabase.Options(),
    busyRetries: Int = 3, maxBatchSize: Int = 256,
    configure: @escaping @Sendable (SQLiteDatabase) throws -> Void = { _ in }
  ) throws {
    guard let executor = ThreadExecutor() else {
      throw SQLiteError.misuse("could not start a thread for \(path)", sql: nil)
    }
    self.path = path
    self.executor = executor
    self.options = options
    self.busyRetries = max(busyRetries, 0)
    self.maxBatchSize = max(maxBatchSize, 1)
    self.configure = configure
  }

  deinit {
    // The database closes in its own deinit; no job of this actor can remain.
    executor.stop()
  }

  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Opens the file and runs `configure` now, so that a bad path or a failed
  /// migration shows at start rather than at the first request.
  public func open() throws {
    _ = try openDatabase()
  }

  /// Copies the WAL into the file and empties it: after a bulk load, so that
  /// readers do not look up pages in a WAL of hundreds of megabytes until the
  /// next automatic checkpoint gets to it.
  public func checkpoint() throws {
    try openDatabase().execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  /// Closes the file (checkpointing the WAL when it is the last connection).
  /// Later calls throw `SQLITE_MISUSE`.
  public func close() {
    isClosed = true
    database?.close()
    database = nil
  }

  private func openDatabase() throws -> SQLiteDatabase {
    if let database {
      return database
    }
    guard !isClosed else {
      throw SQLiteError.misuse("the connection to \(path) is closed", sql: nil)
    }
    let database = try SQLiteDatabase(path: path, options: options)
    try configure(database)
    self.database = database
    return database
  }

  /// Runs `body` in a DEFERRED transaction: all its queries see one snapshot,
  /// and writers of other connections go on meanwhile (WAL). `body` must not
  /// write (use `write`).
  @discardableResult
  public func read<T: Sendable>(_ body: sending (SQLiteDatabase) throws -> T) async throws -> T {
    let database = try openDatabase()
    return try database.transaction(.deferred) { try body(database) }
  }

  /// Runs `body` in an IMMEDIATE transaction, committed (durably, with
  /// synchronous=FULL) before this returns, rolled back if `body` throws.
  ///
  /// When `BEGIN` still meets another connection's lock after the busy timeout,
  /// it is tried `busyRetries` more times with a short backoff; `body` runs once.
  @discardableResult
  public func write<T: Sendable>(_ body: sending (SQLiteDatabase) throws -> T) async throws -> T {
    let database = try openDatabase()
    try await beginImmediate(database)
    // No suspension from here to the commit: no other call of this actor can
    // run inside the transaction.
    do {
      let result = try body(database)
      try database.run("COMMIT")
      return result
    } catch {
      database.rollback()
      throw error
    }
  }

  /// `BEGIN IMMEDIATE`, tried again after `SQLITE_BUSY` with a growing backoff
  /// (10, 20, 40 ms, …, with jitter). Other calls of the actor run meanwhile.
  private func beginImmediate(_ database: SQLiteDatabase) async throws {
    var attempt = 0
    while true {
      do {
        try database.run(SQLiteTransactionKind.immediate.beginStatement)
        return
      } catch let error as SQLiteError where error.isBusy && attempt < busyRetries {
        attempt += 1
        let milliseconds = 10 << min(attempt - 1, 6)
        try await Task.sleep(for: .milliseconds(milliseconds + Int.random(in: 0...milliseconds)))
      }
    }
  }

  // MARK: Group commit

  /// Runs `body` in a transaction shared with the other `writeBatched` calls
  /// that arrive while a commit is under way, so that one durable commit (one
  /// fsync) serves them all.
  ///
  /// Each body runs in its own savepoint: one that throws is rolled back alone
  /// and its caller gets its error, the others commit. Every caller resumes
  /// only after the COMMIT returned. If the commit itself fails, every body of
  /// the batch gets that error and nothing of it was written.
  ///
  /// A lone caller pays one extra hop (a few µs) over `write`. Once queued, a
  /// body runs even if its task is cancelled.
  @discardableResult
  public func writeBatched<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> T)
    async throws -> T
  {
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
      pendingWrites.append(SQLiteBatchedWriteBox(body: body, continuation: continuation))
      scheduleCommit()
    }
  }

  /// Schedules a group commit behind the jobs already waiting for the thread,
  /// so the writers among them join it.
  private func scheduleCommit() {
    guard !isCommitScheduled else { return }
    isCommitScheduled = true
    Task { await self.commitPendingWrites() }
  }

  private func commitPendingWrites() async {
    let database: SQLiteDatabase
    do {
      database = try openDatabase()
      try await beginImmediate(database)
    } catch {
      isCommitScheduled = false
      let failed = pendingWrites
      pendingWrites = []
      for write in failed {
        write.finish(throwing: error)
      }
      return
    }
    // Writers that arrived during a backoff are in `pendingWrites` too.
    let batch = Array(pendingWrites.prefix(maxBatchSize))
    pendingWrites.removeFirst(batch.count)
    isCommitScheduled = false
    if !pendingWrites.isEmpty {
      scheduleCommit()
    }

    var committed: [any SQLiteBatchedWrite] = []
    var failures: [(write: any SQLiteBatchedWrite, error: any Error)] = []
    for write in batch {
      if !database.isInTransaction {
        // SQLite rolled the whole transaction back (SQLITE_FULL, SQLITE_IOERR,
        // …): the bodies before lost their work too. Start again for the rest.
        do {
          try database.run(SQLiteTransactionKind.immediate.beginStatement)
        } catch {
          failures.append((write, error))
          continue
        }
      }
      do {
        try database.savepoint { try write.perform(database) }
        committed.append(write)
      } catch {
        failures.append((write, error))
        if !database.isInTransaction {
          failures += committed.map { ($0, error) }
          committed = []
        }
      }
    }

    if database.isInTransaction {
      do {
        try database.run("COMMIT")
      } catch {
        database.rollback()
        failures += committed.map { ($0, error) }
        committed = []
      }
    }
    for write in committed {
      write.finish(throwing: nil)
    }
    for (write, error) in failures {
      write.finish(throwing: error)
    }
  }
}

/// A `writeBatched` body waiting for its group commit, with its caller.
protocol SQLiteBatchedWrite: AnyObject {
  /// Runs the body and keeps its value.
  func perform(_ database: SQLiteDatabase) throws
  /// Resumes the caller: with the kept value when `error` is nil.
  func finish(throwing error: (any Error)?)
}

/// A `writeBatched` body of result type `T` and its caller's continuation.
/// Used only on the connection's thread.
final class SQLiteBatchedWriteBox<T: Sendable>: SQLiteBatchedWrite {
  /// The caller's work.
  private let body: @Sendable (SQLiteDatabase) throws -> T
  /// Resumed once, after the commit.
  private let continuation: CheckedContinuation<T, any Error>
  /// The body's value, once it ran without error.
  private var value: T?

  init(
    body: @escaping @Sendable (SQLiteDatabase) throws -> T,
    continuation: CheckedContinuation<T, any Error>
  ) {
    self.body = body
    self.continuation = continuation
  }

  func perform(_ database: SQLiteDatabase) throws {
    value = try body(database)
  }

  func finish(throwing error: (any Error)?) {
    if let error {
      continuation.resume(throwing: error)
    } else if let value {
      continuation.resume(returning: value)
    } else {
      continuation.resume(
        throwing: SQLiteError.misuse("the batched write did not run", sql: nil))
    }
  }
}
