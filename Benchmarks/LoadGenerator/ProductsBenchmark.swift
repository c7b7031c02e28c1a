import Glibc
import Services

/// The products figures of issue 3, through the daemon on a catalog of N
/// products: list p50 for the first page and for a page 900,000 rows deep,
/// search p50, get p50, and create throughput with every create durable.
///
/// The catalog is seeded once per N into `.build/bench-data/products-N-vV` and
/// reused; each run copies it first, so the creates never change the next run.
/// With `--postgres` the same figures are measured on a PostgreSQL catalog of N
/// products (`PostgresBenchCluster`), each beside its embedded counterpart, and
/// then creates from eight daemons at once (`ConcurrentCreates`).
struct ProductsBenchmark {
  static let samples = 1_000
  static let creates = 20_000
  /// Queries of three characters or more, served by the trigram index.
  static let queries = ["고등어", "유기농 사과", "milk", "Premium", "참기름 1L", "Mackerel"]
  /// Queries of one or two characters, which trigrams cannot index: a scan.
  static let shortQueries = ["우유", "김", "두부", "Tea"]

  let options: Options

  /// One catalog measured: the embedded one, or with `--postgres` the shared one, whose figures
  /// follow the embedded one's line by line (`pg` before the label, `postgres` before the key).
  private struct Backend {
    let client: LineClient
    let keyPrefix: String
    let labelPrefix: String

    func key(_ key: String) -> String {
      keyPrefix.isEmpty ? key : keyPrefix + key.prefix(1).uppercased() + key.dropFirst()
    }
    func label(_ label: String) -> String { labelPrefix + label }
  }

  func run(into report: inout Report) throws {
    let count = options.products
    let work = try seededCatalog(count, binary: options.binary)
    report.setting("products", "\(count)")
    var backends = [
      Backend(
        client: try LineClient(
          binary: options.binary, arguments: ["--data-dir", work.path, "--log-level", "error"]),
        keyPrefix: "", labelPrefix: "")
    ]
    let cluster =
      options.postgres
      ? try PostgresBenchCluster(products: count, binary: options.binary) : nil
    defer { cluster?.stop() }
    let postgresWork = try TempDirectory()
    if let cluster {
      report.setting("postgres", jsonString(cluster.base))
      backends.append(
        Backend(
          client: try LineClient(
            binary: options.binary,
            arguments: [
              "--data-dir", postgresWork.path, "--log-level", "error", "--database-url",
              cluster.url,
            ]), keyPrefix: "postgres", labelPrefix: "pg "))
    }
    for backend in backends {
      _ = try backend.client.call(#""initialize","params":{"clientId":"bench"}"#)
    }

    for backend in backends {
      report.add(
        try latency(backend, "listFirstPage", "list first page p50", Target.pageMilliseconds) {
          _ in #""products/list","params":{"limit":20}"#
        })
    }

    let depth = min(900_000, max(count - 100, 0))
    for backend in backends {
      var cursor = ""
      var walked = 0
      while walked < depth {
        let cursorParam = cursor.isEmpty ? "" : #","cursor":"\#(cursor)""#
        let reply = try backend.client.call(
          #""products/list","params":{"limit":100\#(cursorParam)}"#)
        cursor = try stringField("nextCursor", in: reply)
        walked += 100
      }
      let deepParam = cursor.isEmpty ? "" : #","cursor":"\#(cursor)""#
      report.add(
        try latency(
          backend, "listDeepPage", "list page \(walked) deep p50", Target.pageMilliseconds
        ) { _ in #""products/list","params":{"limit":20\#(deepParam)}"# })
    }

    for backend in backends {
      report.add(
        try latency(backend, "search", "search p50", Target.searchMilliseconds) { index in
          #""products/list","params":{"limit":20,"query":"\#(Self.queries[index % Self.queries.count])"}"#
        })
    }
    for backend in backends {
      report.add(
        try latency(
          backend, "searchShort", "search 1-2 chars p50", Target.searchMilliseconds, samples: 100
        ) { index in
          #""products/list","params":{"limit":20,"query":"\#(Self.shortQueries[index % Self.shortQueries.count])"}"#
        })
    }

    // A write makes every kept search count stale: it is brought up to date from the change log.
    for backend in backends {
      report.add(
        try latency(
          backend, "searchAfterWrite", "search after a write p50", Target.searchMilliseconds,
          samples: 60, warmUp: 0
        ) { index in
          _ = try? backend.client.call(
            #""products/create","params":{"nameKo":"캐시 무효화 \#(index)","price":1}"#)
          return
            #""products/list","params":{"limit":20,"query":"\#(Self.queries[index % Self.queries.count])"}"#
        })
    }

    var random = SystemRandomNumberGenerator()
    for backend in backends {
      report.add(
        try latency(backend, "get", "get p50", Target.getMilliseconds) { _ in
          #""products/get","params":{"id":"\#(Int.random(in: 1...count, using: &random))"}"#
        })
    }

    for backend in backends {
      var text = ""
      for index in 0..<Self.creates {
        text +=
          #"{"jsonrpc":"2.0","id":\#(1_000_000 + index),"method":"products/create","params":"#
          + #"{"nameKo":"벤치마크 상품 \#(index)","price":\#(1000 + index)}}"# + "\n"
      }
      let bytes = Array(text.utf8)
      let input = backend.client.process.input
      let started = monotonicNanoseconds()
      // Written from a thread of its own while this one reads: written first
      // and read after, the replies fill the daemon's queue, it stops reading
      // (back-pressure), and both sides wait on a full pipe.
      let writer = try NativeThread { () -> Bool in
        (try? bytes.withUnsafeBytes { try writeAll(input, $0) }) != nil
      }
      try backend.client.skipReplies(Self.creates)
      guard writer.join() == true else { throw BenchError.harness("writing the creates failed") }
      let seconds = Double(monotonicNanoseconds() - started) / 1e9
      var creates = Figure(
        key: backend.key("createsPerSecond"), label: backend.label("creates (durable)"),
        unit: "/s", decimals: 0, target: .atLeast(Target.createsPerSecond))
      creates.value = Double(Self.creates) / seconds
      report.add(creates)
    }
    for backend in backends { try backend.client.close() }

    if let cluster {
      try ConcurrentCreates(
        binary: options.binary, cluster: cluster, daemons: ConcurrentCreates.daemonCount,
        creates: Self.creates
      ).run(into: &report)
    }
  }

  enum Target {
    static let pageMilliseconds = 1.0
    static let searchMilliseconds = 10.0
    static let getMilliseconds = 0.2
    static let createsPerSecond = 5_000.0
  }

  /// p50 and p99 of `count` sequential round trips after `warmUp` untimed ones; the p50 is the figure.
  private func latency(
    _ backend: Backend, _ key: String, _ label: String, _ target: Double,
    samples count: Int = Self.samples, warmUp: Int = 100, request: (Int) -> String
  ) throws -> Figure {
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    for index in 0..<(count + warmUp) {
      let text = request(index)  // Untimed: it may do set-up of its own.
      let elapsed = try backend.client.timedCall(text, backend.label(label))
      if index >= warmUp { samples.append(elapsed) }
    }
    return latencyFigure(backend.key(key), backend.label(label), samples, target: target)
  }
}
