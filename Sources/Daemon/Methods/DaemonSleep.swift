import Protocol

/// `daemon/sleep {ms, lane?}`: waits, honouring cancellation. A test aid for
/// cancellation, concurrency and ordering: requests with the same `lane`
/// run one after another in arrival order.
enum DaemonSleep {
  static let method = Method.task("daemon/sleep", lane: lane) { params, _ in
    let params = try Params(params)
    let milliseconds = try params.requiredInt("ms", in: 0...600_000)
    _ = try params.string("lane")
    try await Task.sleep(for: .milliseconds(milliseconds))
    return ["slept": JSON(milliseconds)]
  }

  @Sendable static func lane(_ params: JSON?) -> String? {
    params?["lane"]?.stringValue.map { "sleep:" + $0 }
  }
}
