/// One row; the accessors throw when a value is not what the schema promises.
struct PostgresRow: Sendable {
  let values: [String?]

  func isNull(_ column: Int) -> Bool { values[column] == nil }

  func text(_ column: Int) throws(PostgresError) -> String {
    guard let value = values[column] else { throw Self.unexpected("NULL", column) }
    return value
  }

  func int64(_ column: Int) throws(PostgresError) -> Int64 {
    let text = try text(column)
    guard let value = Int64(text) else { throw Self.unexpected(text, column) }
    return value
  }

  func int(_ column: Int) throws(PostgresError) -> Int { Int(try int64(column)) }

  private static func unexpected(_ value: String, _ column: Int) -> PostgresError {
    PostgresError(kind: .statement, message: "unexpected value \(value) in column \(column)")
  }
}
