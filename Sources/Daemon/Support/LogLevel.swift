/// How much the daemon says on stderr.
enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  case error, warn, info, debug, trace

  init?(name: String) {
    guard let level = Self.allCases.first(where: { "\($0)" == name.lowercased() }) else {
      return nil
    }
    self = level
  }

  static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
