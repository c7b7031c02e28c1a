/// One SQLite value: what a parameter binds and what a column holds.
///
/// Parameters are always bound (`?`, `?NNN`, `:name`, `@name`, `$name`), never
/// interpolated into SQL text. Literals work directly:
/// `try db.run("INSERT INTO t VALUES (?, ?, ?)", [1, "two", nil])`, and
/// variables through `SQLiteValue(x)` for any `SQLiteValueConvertible`
/// (optionals included: `nil` binds NULL).
public enum SQLiteValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The value of a Swift value (`Int`, `String`, `Double`, `Bool`, `[UInt8]`, an optional of those).
  public init(_ value: some SQLiteValueConvertible) {
    self = value.sqliteValue
  }

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The integer, or nil for any other storage class.
  public var int64Value: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The real, or the integer converted; nil for text, blob and NULL.
  public var doubleValue: Double? {
    switch self {
    case .real(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }

  /// The text, or nil for any other storage class.
  public var textValue: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// The blob, or nil for any other storage class.
  public var blobValue: [UInt8]? {
    if case .blob(let value) = self { return value }
    return nil
  }
}

extension SQLiteValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
  /// SQLite has no boolean: true is 1 and false is 0.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

/// A Swift value that binds as one SQLite value.
public protocol SQLiteValueConvertible {
  var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { self }
}

extension Int: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int32: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .real(self) }
}

extension Bool: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension String: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .text(self) }
}

extension Substring: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .text(String(self)) }
}

extension [UInt8]: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
  public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
