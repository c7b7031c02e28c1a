import Protocol

/// `daemon/status`: uptime, request counters, requests in flight, backends, data dir.
enum DaemonStatus {
  static let method = Method.inline("daemon/status") { _, context in
    let daemon = context.daemon
    let uptime = monotonicSeconds() - daemon.startedAt
    return [
      "version": JSON(Version.current),
      "uptimeSeconds": JSON((uptime * 1000).rounded() / 1000),
      "requests": daemon.statistics.json,
      "inFlight": JSON(daemon.statistics.inFlight.load(ordering: .relaxed)),
      "queuedOutputBytes": JSON(daemon.queuedOutputBytes()),
      "backends": daemon.services.backends,
      "dataDir": JSON(daemon.configuration.dataDirectory),
      "clientId": JSON(daemon.services.clientIdentity.current),
    ]
  }
}
