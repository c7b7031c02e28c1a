import Protocol

/// RFC 3339 UTC timestamps with microseconds, for logs and traces.
enum Timestamp {
  static func now() -> String { RFC3339.now() }
}
