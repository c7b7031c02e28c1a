/// The rows of a statement's result, copied out of libpq in text format.
struct PostgresRows: Sendable {
  /// Each row's values; `nil` is SQL NULL.
  let values: [[String?]]
  /// How many rows the statement changed (INSERT, UPDATE, DELETE), else 0.
  let affected: Int

  var count: Int { values.count }
  var isEmpty: Bool { values.isEmpty }

  subscript(row: Int) -> PostgresRow { PostgresRow(values: values[row]) }
  var first: PostgresRow? { values.first.map(PostgresRow.init) }
  var rows: [PostgresRow] { values.map(PostgresRow.init) }
}
