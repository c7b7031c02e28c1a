import Protocol

/// A method's cumulative histogram of time inside the daemon, as
/// `daemon/status {histograms: true}` gives it: two reads, subtracted, give
/// the time the daemon took for the requests in between, without the pipes,
/// the client or the wake-ups of either.
struct DaemonTimings {
  /// Requests per bucket, by the bucket's upper bound in milliseconds.
  let buckets: [Double: Int]

  /// Reads `method`'s histogram through `client`.
  init(_ method: String, through client: LineClient) throws {
    let reply = try JSONParser.parse(
      try client.call(#""daemon/status","params":{"histograms":true}"#))
    guard let timings = reply["result"]?["timings"] else {
      throw BenchError.wrongReplies("daemon/status without timings")
    }
    var buckets: [Double: Int] = [:]
    for bucket in timings[method]?["buckets"]?.arrayValue ?? [] {
      guard let pair = bucket.arrayValue, pair.count == 2, let upper = pair[0].doubleValue,
        let count = pair[1].intValue
      else { throw BenchError.wrongReplies("daemon/status bucket \(bucket)") }
      buckets[upper] = count
    }
    self.buckets = buckets
  }

  /// The nearest-rank `percent` percentile (a bucket's upper bound, in
  /// milliseconds) of the requests counted since `earlier`, and how many there were.
  func percentile(_ percent: Double, since earlier: DaemonTimings) -> (
    milliseconds: Double, count: Int
  ) {
    let interval = buckets.map { ($0.key, $0.value - (earlier.buckets[$0.key] ?? 0)) }
      .filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
    let count = interval.reduce(0) { $0 + $1.1 }
    let rank = max(Int((percent / 100 * Double(count)).rounded(.up)), 1)
    var seen = 0
    for (upper, requests) in interval {
      seen += requests
      if seen >= rank { return (upper, count) }
    }
    return (0, 0)
  }
}
