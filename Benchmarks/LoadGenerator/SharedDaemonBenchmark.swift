import Glibc
import Services

/// The shared daemon's figures (issue 16): eight clients searching N places
/// through forwarders to one daemon, beside one daemon of a client's own (the
/// memory of them all, each client's first search); what a forwarder adds to
/// an echo round trip and to pipelined echo, against a daemon of the
/// client's own measured in the same run; and `catalogd call --remote=auto`
/// against a warm daemon, end to end.
struct SharedDaemonBenchmark {
  static let clients = 8
  static let callRuns = 50

  let options: Options

  func run(into report: inout Report) throws {
    let binary = options.binary
    let count = options.places
    let folder = try PlacesDataSet.seeded(count: count, binary: binary)
    let queries = PlacesBenchmark.queryCenters(try PlacesDataSet(folder: folder))
    report.setting("places", "\(count)")
    let run = try TempDirectory()

    // One daemon of its own, as every client has today.
    let own = try LineClient(
      binary: binary, arguments: ["--data-dir", folder, "--log-level", "error"])
    _ = try own.call(#""initialize","params":{"clientId":"bench"}"#)
    let ownFirst = try timed { _ = try own.call(queries[0].at(radius: 1_000).request) }
    let ownResident = try own.process.residentKilobytes()
    let ownProportional = try own.process.proportionalKilobytes()
    try own.close()
    var ownFigure = Figure(
      key: "ownFirstSearch", label: "own daemon: first search", unit: "ms", decimals: 1)
    ownFigure.value = Double(ownFirst) / 1e6
    ownFigure.detail =
      "reads the rows and builds the index; RSS after it \(Self.megabytes(ownResident)) MB"
    report.add(ownFigure)

    // Eight clients, one after the other, of one shared daemon.
    let socket = run.path + "/catalogd.sock"
    let daemon = try DaemonProcess(
      executable: binary,
      arguments: ["serve", "--listen", socket, "--data-dir", folder, "--log-level", "error"])
    defer { daemon.terminate() }
    try waitUntilListening(socket, daemon: daemon)
    var clients: [LineClient] = []
    var firstSearches: [UInt64] = []
    for number in 0..<Self.clients {
      let client = try LineClient(binary: binary, arguments: ["--remote", socket])
      _ = try client.call(#""initialize","params":{"clientId":"bench-\#(number)"}"#)
      firstSearches.append(
        try timed { _ = try client.call(queries[number + 1].at(radius: 1_000).request) })
      clients.append(client)
    }
    var first = Figure(
      key: "sharedFirstSearch", label: "shared: client 1 first search", unit: "ms", decimals: 1)
    first.value = Double(firstSearches[0]) / 1e6
    report.add(first)
    var others = Figure(
      key: "sharedLaterFirstSearch", label: "shared: clients 2–8 first search", unit: "ms",
      decimals: 2, target: .atMost(5))
    others.value = Double(firstSearches.dropFirst().max() ?? 0) / 1e6
    others.detail = "the slowest of the seven"
    report.add(others)
    // Measured once every forwarder waits for its session's end: a forwarder
    // drops its start's pages just before, and the last client's first search
    // can come back sooner.
    for client in clients { try client.process.waitUntilBlockedInRead(seconds: 30) }
    let processes = [daemon] + clients.map(\.process)
    let residents = try processes.map { try $0.residentKilobytes() }
    let resident = residents.reduce(0, +)
    let proportional = try processes.reduce(0) { $0 + (try $1.proportionalKilobytes()) }
    var residentFigure = Self.percentOfOwn(
      key: "sharedResidentPercent", label: "shared: RSS of all, % of one own", all: resident,
      own: ownResident, target: 150)
    residentFigure.detail? +=
      " (the daemon \(Self.megabytes(residents[0])) MB, a forwarder "
      + "\(Self.megabytes(residents.dropFirst().max() ?? 0)) MB at most)"
    report.add(residentFigure)
    // RSS counts the pages of the binary and its libraries in every process
    // that maps them; PSS counts each page once, shared among them.
    report.add(
      Self.percentOfOwn(
        key: "sharedProportionalPercent", label: "shared: PSS of all, % of one own",
        all: proportional, own: ownProportional, target: nil))
    for client in clients { try client.close() }

    try forwarderOverhead(socket: socket, into: &report)
    try callAgainstWarmDaemon(runtime: run.path, into: &report)
  }

  /// Echo round trips and pipelined echo, directly and through a forwarder.
  private func forwarderOverhead(socket: String, into report: inout Report) throws {
    let watchdog = try Watchdog()
    let timeout = options.timeoutSeconds
    let roundTrips = options.pingPongRoundTrips
    // Alternated, so that a change in the machine's load touches both alike.
    func pingPongMedian(_ arguments: [String]) throws -> UInt64 {
      try PingPong(
        binary: options.binary, framing: .ndjson, roundTrips: roundTrips, watchdog: watchdog,
        timeoutSeconds: timeout, arguments: arguments
      ).latencies.median
    }
    var direct: [UInt64] = []
    var forwarded: [UInt64] = []
    for _ in 0..<3 {
      direct.append(try pingPongMedian([]))
      forwarded.append(try pingPongMedian(["--remote", socket]))
    }
    let directP50 = Double(direct.sorted()[1]) / 1e3
    let forwardedP50 = Double(forwarded.sorted()[1]) / 1e3
    var added = Figure(
      key: "forwarderAddsP50", label: "forwarder adds to ping-pong p50", unit: "µs", decimals: 1,
      target: .atMost(15))
    added.value = forwardedP50 - directP50
    added.detail =
      "\(formatted(forwardedP50, decimals: 1, grouped: false)) µs through it, "
      + "\(formatted(directP50, decimals: 1, grouped: false)) µs direct (medians of 3 runs)"
    report.add(added)

    var throughput = Figure(
      key: "forwardedThroughput", label: "pipelined echo through a forwarder", unit: "req/s",
      decimals: 0, target: .atLeast(300_000))
    func echoes(_ arguments: [String]) throws -> Throughput {
      try Throughput(
        binary: options.binary, framing: .ndjson, requests: options.requests, watchdog: watchdog,
        timeoutSeconds: timeout, arguments: arguments)
    }
    let through = try echoes(["--remote", socket])
    let own = try echoes([])
    throughput.value = through.requestsPerSecond
    throughput.detail =
      "direct \(formatted(own.requestsPerSecond, decimals: 0, grouped: true)) req/s"
    report.add(throughput)
  }

  /// Memory of the daemon and its forwarders as a percentage of one own daemon's.
  private static func percentOfOwn(
    key: String, label: String, all: Int, own: Int, target: Double?
  ) -> Figure {
    var figure = Figure(
      key: key, label: label, unit: "%", decimals: 0, target: target.map { .atMost($0) })
    figure.value = Double(all) * 100 / Double(own)
    figure.detail =
      "\(megabytes(all)) MB for the daemon and \(clients) forwarders, one own \(megabytes(own)) MB"
    return figure
  }

  /// `catalogd call --remote=auto quotes/random`, spawned to its exit, once the daemon runs.
  private func callAgainstWarmDaemon(runtime: String, into report: inout Report) throws {
    setenv("XDG_RUNTIME_DIR", runtime, 1)
    let data = try TempDirectory()
    let arguments = [
      "call", "--remote=auto", "--idle-timeout", "2", "--data-dir", data.path, "--log-level",
      "error", "quotes/random",
    ]
    _ = try captureOutput(options.binary, arguments)  // Starts the daemon.
    var samples: [UInt64] = []
    for _ in 0..<Self.callRuns {
      samples.append(try timed { _ = try captureOutput(options.binary, arguments) })
    }
    let times = Percentiles(samples)
    var call = Figure(
      key: "remoteCallMedian", label: "call --remote=auto, warm", unit: "ms", decimals: 2,
      target: .atMost(5))
    call.value = Double(times.median) / 1e6
    call.detail =
      "p90 \(formatted(Double(times.at(90)) / 1e6, decimals: 2, grouped: false)) ms, "
      + "\(Self.callRuns) runs"
    report.add(call)
  }

  private func waitUntilListening(_ socket: String, daemon: DaemonProcess) throws {
    let deadline = monotonicNanoseconds() + 30_000_000_000
    while !accepts(socket) {
      guard monotonicNanoseconds() < deadline else {
        throw BenchError.harness("the shared daemon did not listen on \(socket)")
      }
      usleep(5_000)
    }
  }

  /// Whether a daemon listens on `path` (its file exists a moment before it does).
  private func accepts(_ path: String) -> Bool {
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes.prefix(raw.count - 1))
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
      }
    }
  }

  private func timed(_ body: () throws -> Void) rethrows -> UInt64 {
    let started = monotonicNanoseconds()
    try body()
    return monotonicNanoseconds() - started
  }

  private static func megabytes(_ kilobytes: Int) -> String {
    formatted(Double(kilobytes) / 1024, decimals: 1, grouped: false)
  }
}
