import CLibPQ
import Glibc

/// One libpq connection. Every call blocks, so a session lives on one
/// dedicated thread (a `PostgresConnection`'s, or a `PostgresListener`'s)
/// and is never shared between threads at once.
///
/// Statements go through `PQexecParams`: every value is a bound parameter in
/// text format, never part of the SQL.
final class PostgresSession {
  private let connection: OpaquePointer

  /// Connects to `url` (a `postgres://` URL or a `key=value` string; libpq's
  /// environment variables fill what it leaves out).
  /// - Throws: `PostgresError` of kind `.connection`.
  init(url: String, applicationName: String, connectTimeoutSeconds: Int) throws(PostgresError) {
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
        PQconnectdbParams(keys.baseAddress, vals.baseAddress, 1)
      }
    }
    guard let made else {
      throw PostgresError(kind: .connection, message: "out of memory while connecting")
    }
    guard PQstatus(made) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(made))
      PQfinish(made)
      throw PostgresError(kind: .connection, message: message)
    }
    // Notices ("relation already exists, skipping") would go to stderr.
    PQsetNoticeProcessor(made, { _, _ in }, nil)
    connection = made
  }

  deinit { PQfinish(connection) }

  /// Reads what the server sent meanwhile (a shutdown notice, notifications)
  /// and tells whether the connection still stands.
  var isHealthy: Bool {
    PQconsumeInput(connection) == 1 && PQstatus(connection) == CONNECTION_OK
  }

  /// The socket, for `poll` while waiting for notifications.
  var socket: Int32 { PQsocket(connection) }

  /// Runs one statement with `parameters` bound to `$1`, `$2`, …
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
    let copies = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
      PQexecParams(
        connection, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
    }
    return try rows(of: result)
  }

  /// Runs several statements without parameters (a migration's script).
  func executeScript(_ sql: String) throws(PostgresError) {
    _ = try rows(of: PQexec(connection, sql))
  }

  /// The notifications received so far: (channel, payload).
  func notifications() -> [(channel: String, payload: String)] {
    var received: [(String, String)] = []
    while let notification = PQnotifies(connection) {
      received.append(
        (
          String(cString: notification.pointee.relname),
          String(cString: notification.pointee.extra)
        ))
      PQfreemem(notification)
    }
    return received
  }

  private func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
    guard let result else {
      throw PostgresError(
        kind: PQstatus(connection) == CONNECTION_OK ? .statement : .connection,
        message: String(cString: PQerrorMessage(connection)))
    }
    defer { PQclear(result) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
      let rowCount = Int(PQntuples(result))
      let columnCount = Int(PQnfields(result))
      var values: [[String?]] = []
      values.reserveCapacity(rowCount)
      for row in 0..<Int32(rowCount) {
        values.append(
          (0..<Int32(columnCount)).map { column in
            PQgetisnull(result, row, column) == 1
              ? nil : String(cString: PQgetvalue(result, row, column))
          })
      }
      let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
      return PostgresRows(values: values, affected: affected)
    default:
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let message =
        PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        ?? String(cString: PQerrorMessage(connection))
      let broken = PQstatus(connection) != CONNECTION_OK
      throw PostgresError(
        kind: broken ? .connection : .statement, sqlState: state, message: message)
    }
  }
}
