import Protocol

/// `daemon/echo`: returns its params unchanged (health checks, benchmarks).
enum DaemonEcho {
  static let contract = MethodContract(
    "daemon/echo", "Returns its params unchanged (health checks, benchmarks); null without params.",
    result: MethodResult("params", .any), takesAnyParams: true)

  /// Any params, by name or by position: nothing to check.
  static let method = Method(
    contract: contract, body: .inline { params, _ in params ?? .null }, lane: nil)
}
