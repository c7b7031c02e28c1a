import Protocol

/// `daemon/sleep {ms, lane?}`: waits, honouring cancellation. A test aid for
/// cancellation, concurrency and ordering: requests with the same `lane`
/// run one after another in arrival order.
enum DaemonSleep {
  static let milliseconds: Param<Int> = .requiredInteger("ms", 0...600_000, "how long to wait")
  static let laneName: Param<String?> = .string(
    "lane", maxLength: 200, "requests with the same lane run in arrival order")

  static let contract = MethodContract(
    "daemon/sleep",
    "Waits ms milliseconds, honouring $/cancelRequest. A test aid: requests with the same lane "
      + "run one after another in arrival order.",
    params: [milliseconds, laneName],
    result: MethodResult("SleepResult", .object([Member("slept", .integer, required: true)])))

  static let method = Method.task(contract, lane: lane) { params, _ in
    try await Task.sleep(for: .milliseconds(params[milliseconds]))
    return ["slept": JSON(params[milliseconds])]
  }

  @Sendable static func lane(_ params: JSON?) -> String? {
    params?["lane"]?.stringValue.map { "sleep:" + $0 }
  }
}
