import Protocol

/// `daemon/echo`: returns its params unchanged (health checks, benchmarks).
enum DaemonEcho {
  static let method = Method.inline("daemon/echo") { params, _ in params ?? .null }
}
