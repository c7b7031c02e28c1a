import Services

/// Sequential latency: write one request, read its reply, repeat. Each round trip is timed
/// alone, after a warm-up that lets the daemon's caches, allocator and scheduler settle.
struct PingPong {
  static let warmUpRoundTrips = 1000

  /// Round-trip times in nanoseconds.
  let latencies: Percentiles

  init(
    binary: String, framing: Framing, roundTrips: Int, watchdog: Watchdog, timeoutSeconds: Int,
    arguments: [String] = []
  ) throws {
    let ids = 1...(Self.warmUpRoundTrips + roundTrips)
    let requests = Request.echoes(ids, framing: framing)
    let session = try DaemonSession(
      binary: binary, framing: framing, watchdog: watchdog, timeoutSeconds: timeoutSeconds,
      arguments: arguments)
    var tally = ReplyTally(ids: ids)
    var samples = [UInt64](repeating: 0, count: roundTrips)
    try session.guarded {
      try requests.bytes.withUnsafeBytes { all in
        var requestStart = 0
        for (index, requestEnd) in requests.ends.enumerated() {
          let request = UnsafeRawBufferPointer(rebasing: all[requestStart..<requestEnd])
          let sentAt = monotonicNanoseconds()
          try writeAll(session.process.input, request)
          try session.reader.read(replies: 1, into: &tally)
          let latency = monotonicNanoseconds() - sentAt
          if index >= Self.warmUpRoundTrips { samples[index - Self.warmUpRoundTrips] = latency }
          requestStart = requestEnd
        }
      }
      try tally.verify()
    }
    latencies = Percentiles(samples)
    try session.shutdown()
  }
}
