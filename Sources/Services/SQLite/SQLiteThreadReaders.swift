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
    let connections = ThreadConnections.current
    if let database = connections.byPath[path] { return database }
    let database = try SQLiteDatabase(
      path: path, options: SQLiteDatabase.Options(readOnly: true, busyTimeoutMilliseconds: 0))
    try database.execute("PRAGMA cache_size = -\(cacheKilobytes)")
    connections.byPath[path] = database
    return database
  }

  /// Runs `body` in a read transaction on this thread's connection; nil when
  /// the file is busy (the caller asks the writer's connection instead).
  public func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T? {
    do {
      let database = try database()
      return try database.transaction(.deferred) { try body(database) }
    } catch let error as SQLiteError where error.isBusy {
      return nil
    }
  }
}

/// The connections of one thread, by path.
private final class ThreadConnections {
  var byPath: [String: SQLiteDatabase] = [:]

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
