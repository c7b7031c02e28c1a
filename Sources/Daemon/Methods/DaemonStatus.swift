import Protocol

/// `daemon/status {histograms?}`: uptime, request counters, requests in
/// flight, each method's time inside the daemon, backends, data dir.
enum DaemonStatus {
  static let histograms: Param<Bool> = .boolean(
    "histograms", default: false,
    "add each method's cumulative histogram (buckets), so that two reads give the percentiles "
      + "of the interval between them")

  static let counters = ["received", "succeeded", "failed", "cancelled", "parseError"]

  static let timing = Schema.object([
    Member("count", .integer, required: true),
    Member("p50Ms", .number, required: true),
    Member("p90Ms", .number, required: true),
    Member("p99Ms", .number, required: true),
    Member("maxMs", .number, required: true),
    Member(
      "buckets", .array(of: .array(of: .number, minItems: 2, maxItems: 2)),
      "with histograms: [upperBoundMs, count] of each bucket that holds requests, ascending; "
        + "counts only grow"),
  ])

  static let contract = MethodContract(
    "daemon/status",
    "Uptime, request counters, requests in flight, each method's time inside the daemon, queued "
      + "output, backends, data dir.",
    params: [histograms],
    result: MethodResult(
      "Status",
      .object([
        Member("version", .string, required: true),
        Member("uptimeSeconds", .number, required: true),
        Member(
          "requests", .object(counters.map { Member($0, .integer, required: true) }),
          required: true),
        Member("inFlight", .integer, required: true),
        Member(
          "timings", .map(of: timing), required: true,
          "per method with requests since start: the time from its bytes arriving to its reply "
            + "handed to the output (a wait for a slot or a lane included), in log-linear buckets "
            + "1/32 of a power of two wide; a percentile is its bucket's upper bound, never above "
            + "maxMs"),
        Member("queuedOutputBytes", .integer, required: true),
        Member("backends", .map(of: DaemonSchemas.backendKind), required: true),
        Member("dataDir", .string, required: true),
        Member("clientId", .nullable(.string), required: true),
      ])))

  static let method = Method.inline(contract) { params, context in
    let daemon = context.daemon
    let uptime = monotonicSeconds() - daemon.startedAt
    return [
      "version": JSON(Version.current),
      "uptimeSeconds": JSON((uptime * 1000).rounded() / 1000),
      "requests": daemon.statistics.json,
      "inFlight": JSON(daemon.statistics.inFlight.load(ordering: .relaxed)),
      "timings": daemon.timings.json(buckets: params[histograms]),
      "queuedOutputBytes": JSON(context.session.queuedOutputBytes),
      "backends": daemon.services.backends,
      "dataDir": JSON(daemon.configuration.dataDirectory),
      "clientId": JSON(context.session.clientIdentity.current),
    ]
  }
}
