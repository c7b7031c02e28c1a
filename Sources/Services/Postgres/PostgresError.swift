/// A failure of a PostgreSQL call: the connection (could not connect, or it
/// broke), or the server's error for a statement, with its SQLSTATE.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// No connection: the server is unreachable, refused us, or the connection broke.
    case connection
    /// The server answered a statement with an error.
    case statement
  }

  public let kind: Kind
  /// The five-character SQLSTATE of a server error, when there is one.
  public let sqlState: String?
  /// libpq's or the server's message, on one line.
  public let message: String

  public init(kind: Kind, sqlState: String? = nil, message: String) {
    self.kind = kind
    self.sqlState = sqlState
    self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  public var description: String {
    (sqlState.map { "[\($0)] " } ?? "") + message
  }

  /// The database cannot serve now, but may later: no connection, the server
  /// shutting down or starting (class 08, 57P01–57P03), or a statement that
  /// ran past `statement_timeout` (57014).
  public var isUnavailable: Bool {
    if kind == .connection { return true }
    guard let sqlState else { return false }
    return sqlState.hasPrefix("08")
      || ["57P01", "57P02", "57P03", "57014", "53300"].contains(sqlState)
  }

  /// A transaction that lost a race (serialization failure, deadlock) and
  /// succeeds when run again from its start.
  public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

  /// The same call may succeed if the client sends it again: the database
  /// was unavailable, or a transaction kept losing races after its retries.
  public var isRetryable: Bool { isUnavailable || isTransient }
}
