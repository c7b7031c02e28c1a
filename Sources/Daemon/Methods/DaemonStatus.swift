import Protocol

/// `daemon/status {histograms?}`: uptime, request counters, requests in
/// flight, each method's time inside the daemon, backends, data dir.
enum DaemonStatus {
  static let method = Method.inline("daemon/status") { params, context in
    let histograms = try Params(params).bool("histograms") ?? false
    let daemon = context.daemon
    let uptime = monotonicSeconds() - daemon.startedAt
    return [
      "version": JSON(Version.current),
      "uptimeSeconds": JSON((uptime * 1000).rounded() / 1000),
      "requests": daemon.statistics.json,
      "inFlight": JSON(daemon.statistics.inFlight.load(ordering: .relaxed)),
      "timings": daemon.timings.json(buckets: histograms),
      "queuedOutputBytes": JSON(daemon.queuedOutputBytes()),
      "backends": daemon.services.backends,
      "dataDir": JSON(daemon.configuration.dataDirectory),
      "clientId": JSON(daemon.services.clientIdentity.current),
    ]
  }
}
