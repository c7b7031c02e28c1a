import Glibc

/// The products figures of issue 3, through the daemon on a catalog of N
/// products: list p50 for the first page and for a page 900,000 rows deep,
/// search p50, get p50, and create throughput with every create durable.
///
/// The catalog is seeded once per N into `.build/bench-data/products-N` and
/// reused; each run copies it first, so the creates never change the next run.
struct ProductsBenchmark {
  static let samples = 1_000
  static let creates = 20_000
  /// Queries of three characters or more, served by the trigram index.
  static let queries = ["고등어", "유기농 사과", "milk", "Premium", "참기름 1L", "Mackerel"]
  /// Queries of one or two characters, which trigrams cannot index: a scan.
  static let shortQueries = ["우유", "김", "두부", "Tea"]

  let options: Options

  func run(into report: inout Report) throws {
    let count = options.products
    let work = try seededCatalog(count, binary: options.binary)
    report.setting("products", "\(count)")

    let client = try LineClient(
      binary: options.binary, arguments: ["--data-dir", work.path, "--log-level", "error"])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)

    report.add(
      try latency(client, "listFirstPage", "list first page p50", Target.pageMilliseconds) {
        _ in #""products/list","params":{"limit":20}"#
      })

    let depth = min(900_000, max(count - 100, 0))
    var cursor = ""
    var walked = 0
    while walked < depth {
      let cursorParam = cursor.isEmpty ? "" : #","cursor":"\#(cursor)""#
      let reply = try client.call(#""products/list","params":{"limit":100\#(cursorParam)}"#)
      cursor = try stringField("nextCursor", in: reply)
      walked += 100
    }
    let deepParam = cursor.isEmpty ? "" : #","cursor":"\#(cursor)""#
    report.add(
      try latency(
        client, "listDeepPage", "list page \(walked) deep p50", Target.pageMilliseconds
      ) { _ in #""products/list","params":{"limit":20\#(deepParam)}"# })

    report.add(
      try latency(client, "search", "search p50", Target.searchMilliseconds) { index in
        #""products/list","params":{"limit":20,"query":"\#(Self.queries[index % Self.queries.count])"}"#
      })
    report.add(
      try latency(
        client, "searchShort", "search 1-2 chars p50", Target.searchMilliseconds, samples: 100
      ) { index in
        #""products/list","params":{"limit":20,"query":"\#(Self.shortQueries[index % Self.shortQueries.count])"}"#
      })

    // A write makes every cached search count stale: this is a search's first page cold.
    report.add(
      try latency(
        client, "searchAfterWrite", "search after a write p50", Target.searchMilliseconds,
        samples: 60, warmUp: 0
      ) { index in
        _ = try? client.call(#""products/create","params":{"nameKo":"캐시 무효화 \#(index)","price":1}"#)
        return
          #""products/list","params":{"limit":20,"query":"\#(Self.queries[index % Self.queries.count])"}"#
      })

    var random = SystemRandomNumberGenerator()
    report.add(
      try latency(client, "get", "get p50", Target.getMilliseconds) { _ in
        #""products/get","params":{"id":"\#(Int.random(in: 1...count, using: &random))"}"#
      })

    let started = monotonicNanoseconds()
    for index in 0..<Self.creates {
      try client.send(
        #""products/create","params":{"nameKo":"벤치마크 상품 \#(index)","price":\#(1000 + index)}"#)
    }
    try client.readReplies(Self.creates, ignoringNotifications: true)
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    var creates = Figure(
      key: "createsPerSecond", label: "creates (durable)", unit: "/s", decimals: 0,
      target: .atLeast(Target.createsPerSecond))
    creates.value = Double(Self.creates) / seconds
    report.add(creates)
    try client.close()
  }

  enum Target {
    static let pageMilliseconds = 1.0
    static let searchMilliseconds = 10.0
    static let getMilliseconds = 0.2
    static let createsPerSecond = 5_000.0
  }

  /// p50 and p99 of `count` sequential round trips after `warmUp` untimed ones; the p50 is the figure.
  private func latency(
    _ client: LineClient, _ key: String, _ label: String, _ target: Double,
    samples count: Int = Self.samples, warmUp: Int = 100, request: (Int) -> String
  ) throws -> Figure {
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    for index in 0..<(count + warmUp) {
      let text = request(index)  // Untimed: it may do set-up of its own.
      let started = monotonicNanoseconds()
      let reply = try client.call(text)
      if reply.contains(#""error":"#) {
        throw BenchError.wrongReplies("\(label): \(reply.prefix(300))")
      }
      if index >= warmUp { samples.append(monotonicNanoseconds() - started) }
    }
    return latencyFigure(key, label, samples, target: target)
  }
}
