import Glibc

/// One libpq connection. Every call blocks, so a session lives on one
/// dedicated thread (a `PostgresConnection`'s, or a `PostgresListener`'s)
/// and is never shared between threads at once.
///
/// Statements go through `PQexecParams`: every value is a bound parameter in
/// text format, never part of the SQL.
final class PostgresSession {
  private let pq: LibPQ
  private let connection: OpaquePointer

  /// The statements prepared on this connection, by their SQL.
  private var prepared: [String: String] = [:]
  /// The most statements prepared on one connection; others run unprepared.
  private static let maxPrepared = 64

  /// Connects to `url` (a `postgres://` URL or a `key=value` string; libpq's
  /// environment variables fill what it leaves out).
  /// - Throws: `PostgresError` of kind `.connection`.
  init(url: String, applicationName: String, connectTimeoutSeconds: Int) throws(PostgresError) {
    let pq = try LibPQ.loaded()
    self.pq = pq
    // Our defaults come first: the URL's own parameters override them.
    let parameters = [
      ("connect_timeout", String(connectTimeoutSeconds)),
      ("application_name", applicationName),
      // Notice a dead peer in seconds rather than the system's two hours.
      ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
      ("dbname", url),
    ]
    let keywords = parameters.map { strdup($0.0) }
    let values = parameters.map { strdup($0.1) }
    defer {
      for keyword in keywords { free(keyword) }
      for value in values { free(value) }
    }
    let made = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keys in
      (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { vals in
        pq.connectdbParams(keys.baseAddress, vals.baseAddress, 1)
      }
    }
    guard let made else {
      throw PostgresError(kind: .connection, message: "out of memory while connecting")
    }
    guard pq.status(made) == LibPQ.connectionOK else {
      let message = Self.string(pq.errorMessage(made))
      pq.finish(made)
      throw PostgresError(kind: .connection, message: message)
    }
    // Notices ("relation already exists, skipping") would go to stderr.
    // It returns the processor it replaced, which is libpq's default.
    _ = pq.setNoticeProcessor(made, { _, _ in }, nil)
    connection = made
  }

  deinit { pq.finish(connection) }

  /// Reads what the server sent meanwhile (a shutdown notice, notifications)
  /// and tells whether the connection still stands.
  var isHealthy: Bool {
    pq.consumeInput(connection) == 1 && pq.status(connection) == LibPQ.connectionOK
  }

  /// The socket, for `poll` while waiting for notifications.
  var socket: Int32 { pq.socket(connection) }

  /// Runs one statement with `parameters` bound to `$1`, `$2`, …
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
    let copies = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      pq.execParams(
        connection, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
    }
    return try rows(of: result)
  }

  /// Runs one statement, prepared on this connection at its first use: the
  /// server parses and plans it once, then (after a few runs, when its plan
  /// does not depend on the values) reuses the plan, which for a short read
  /// costs more than running it. Only for a statement whose best plan is the
  /// same whatever the values: a search's is not.
  @discardableResult
  func executePrepared(_ sql: String, _ parameters: [String?] = []) throws(PostgresError)
    -> PostgresRows
  {
    let name: String
    if let known = prepared[sql] {
      name = known
    } else {
      guard prepared.count < Self.maxPrepared else { return try execute(sql, parameters) }
      name = "catalogd_\(prepared.count)"
      _ = try rows(of: pq.prepare(connection, name, sql, Int32(parameters.count), nil))
      prepared[sql] = name
    }
    let copies = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      pq.execPrepared(connection, name, Int32(parameters.count), values.baseAddress, nil, nil, 0)
    }
    return try rows(of: result)
  }

  /// Runs several statements without parameters (a migration's script).
  func executeScript(_ sql: String) throws(PostgresError) {
    _ = try rows(of: pq.exec(connection, sql))
  }

  /// The notifications received so far: (channel, payload).
  func notifications() -> [(channel: String, payload: String)] {
    var received: [(String, String)] = []
    while let notification = pq.notifies(connection) {
      received.append(
        (
          Self.string(
            notification.load(fromByteOffset: LibPQ.notifyRelnameOffset, as: LibPQ.Text.self)),
          Self.string(
            notification.load(fromByteOffset: LibPQ.notifyExtraOffset, as: LibPQ.Text.self))
        ))
      pq.freemem(notification)
    }
    return received
  }

  private func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
    guard let result else {
      throw PostgresError(
        kind: pq.status(connection) == LibPQ.connectionOK ? .statement : .connection,
        message: Self.string(pq.errorMessage(connection)))
    }
    defer { pq.clear(result) }
    switch pq.resultStatus(result) {
    case LibPQ.commandOK, LibPQ.tuplesOK:
      let rowCount = Int(pq.ntuples(result))
      let columnCount = Int(pq.nfields(result))
      var values: [[String?]] = []
      values.reserveCapacity(rowCount)
      for row in 0..<Int32(rowCount) {
        values.append(
          (0..<Int32(columnCount)).map { column in
            pq.getisnull(result, row, column) == 1
              ? nil : Self.string(pq.getvalue(result, row, column))
          })
      }
      let affected = Int(Self.string(pq.cmdTuples(result))) ?? 0
      return PostgresRows(values: values, affected: affected)
    default:
      let state = pq.resultErrorField(result, LibPQ.sqlStateField).map { String(cString: $0) }
      let message =
        pq.resultErrorField(result, LibPQ.messageField).map { String(cString: $0) }
        ?? Self.string(pq.errorMessage(connection))
      let broken = pq.status(connection) != LibPQ.connectionOK
      throw PostgresError(
        kind: broken ? .connection : .statement, sqlState: state, message: message)
    }
  }

  /// A C string libpq returned, or "" for none.
  private static func string(_ text: LibPQ.Text) -> String {
    text.map { String(cString: $0) } ?? ""
  }
}
