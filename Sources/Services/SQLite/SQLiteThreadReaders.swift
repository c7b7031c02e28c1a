import Glibc

/// Read-only connections to one database file, one per calling thread, for
/// reads answered on the thread that received the request (a session's
/// reader) instead of on the writer's connection thread: no thread hand-off,
/// and no waiting behind a commit. WAL lets such readers run beside the
/// writer; each read sees every transaction committed before it began.
///
/// A thread's connections close when the thread ends (a POSIX thread-specific
/// value's destructor). `busy` reads (the file being recovered, say) give up at
/// once: the caller then asks the writer's connection instead.
public final class SQLiteThreadReaders: Sendable {
  public let path: String
  /// Each connection's page cache, in KiB: the upper levels of the tables'
  /// B-trees stay in memory (SQLite's default, 2 MB, is shared by all of it).
  public let cacheKilobytes: Int

  public init(path: String, cacheKilobytes: Int = 8 << 10) {
    self.path = path
    self.cacheKilobytes = cacheKilobytes
  }

  /// This thread's connection to the file, opened on first use.
  public func database() throws -> SQLiteDatabase {
    try database(of: ThreadConnections.current)
  }

  private func database(of connections: ThreadConnections) throws -> SQLiteDatabase {
    // The same `path` each time: `==` matches its storage without hashing it.
    if let last = connections.last, last.path == path { return last }
    if let database = connections.byPath[path] {
      connections.last = database
      return database
    }
    let database = try SQLiteDatabase(
      path: path, options: SQLiteDatabase.Options(readOnly: true, busyTimeoutMilliseconds: 0))
    try database.execute("PRAGMA cache_size = -\(cacheKilobytes)")
    connections.byPath[path] = database
    connections.last = database
    return database
  }

  /// Runs `body` in a read transaction on this thread's connection (in a
  /// burst, the burst's); nil when the file is busy (the caller asks the
  /// writer's connection instead).
  public func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T? {
    try read(oneStatement: false, body)
  }

  /// Like `read`, for a `body` that runs one statement, which is then its own
  /// read transaction (it sees every commit before it began, as a `read`
  /// does). So a request alone in its burst, as each is from a client that
  /// waits for every reply, pays no `BEGIN` and `ROLLBACK`; the second read of
  /// a burst begins the burst's transaction as `read` would, so pipelined
  /// requests still share one.
  public func readStatement<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T? {
    try read(oneStatement: true, body)
  }

  private func read<T>(oneStatement: Bool, _ body: (SQLiteDatabase) throws -> T) throws -> T? {
    let connections = ThreadConnections.current
    var database: SQLiteDatabase?
    do {
      let opened = try self.database(of: connections)
      database = opened
      guard connections.burstDepth > 0 else {
        if oneStatement { return try body(opened) }
        return try opened.transaction(.deferred) { try body(opened) }
      }
      if !opened.isInTransaction {
        if oneStatement && !connections.readAlone.contains(where: { $0 === opened }) {
          connections.readAlone.append(opened)
          return try body(opened)
        }
        try opened.run("BEGIN DEFERRED")
        connections.open.append(opened)
      }
      return try body(opened)
    } catch {
      // A failed read ends the burst's transaction of this file: the next read begins anew.
      if connections.burstDepth > 0, let database { connections.end(database) }
      if let error = error as? SQLiteError, error.isBusy { return nil }
      throw error
    }
  }

  /// Starts a burst on this thread: until `endBurst`, the reads of each file
  /// share one transaction, begun at the first of them (at the second, when
  /// the first was a `readStatement`). For the requests a
  /// session read from its pipe at once: all were sent before that snapshot
  /// began, so it holds every write acknowledged before any of them was sent,
  /// and their file locks and cache checks are paid once. Bursts nest.
  public static func beginBurst() {
    ThreadConnections.current.burstDepth += 1
  }

  /// Ends the burst `beginBurst` started: its read transactions end.
  public static func endBurst() {
    let connections = ThreadConnections.current
    connections.burstDepth -= 1
    guard connections.burstDepth == 0 else { return }
    for database in connections.open { connections.end(database) }
    connections.readAlone.removeAll(keepingCapacity: true)
  }
}

/// The connections of one thread, by path.
private final class ThreadConnections {
  var byPath: [String: SQLiteDatabase] = [:]
  /// The connection used last.
  var last: SQLiteDatabase?
  /// How many bursts are open on the thread (`SQLiteThreadReaders.beginBurst`).
  var burstDepth = 0
  /// The connections whose burst transaction is open.
  var open: [SQLiteDatabase] = []
  /// The connections this burst read one statement from without a
  /// transaction (`readStatement`): their next read of the burst begins one.
  var readAlone: [SQLiteDatabase] = []

  /// Ends `database`'s burst transaction (a read: nothing to keep).
  func end(_ database: SQLiteDatabase) {
    database.rollback()
    open.removeAll { $0 === database }
  }

  /// The thread-specific slot; its destructor releases the thread's connections.
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      guard let pointer else { return }
      Unmanaged<ThreadConnections>.fromOpaque(pointer).release()
    }
    return key
  }()

  /// The calling thread's, made on first use.
  static var current: ThreadConnections {
    if let pointer = pthread_getspecific(key) {
      return Unmanaged<ThreadConnections>.fromOpaque(pointer).takeUnretainedValue()
    }
    let connections = ThreadConnections()
    pthread_setspecific(key, Unmanaged.passRetained(connections).toOpaque())
    return connections
  }
}
