import Glibc

/// The targets the figures are printed beside.
enum Target {
  static let requestsPerSecond = 400_000.0
  static let pingPongP50Microseconds = 6.0
  static let startMilliseconds = 15.0
  static let peakResidentMegabytes = 24.0
}

/// Measures what the options ask for. Exit status: 0 when every figure was measured (a missed
/// target is a figure, not a failure), 1 when one could not be, 2 for a bad command line.
func run(_ arguments: ArraySlice<String>) async -> Int32 {
  let options: Options
  do {
    options = try Options(arguments)
  } catch {
    printError("catalogd-bench: \(error)\n\n\(Options.usage)")
    return 2
  }
  if options.help {
    print(Options.usage)
    return 0
  }
  var report = Report(json: options.json)
  if options.calibrate {
    calibrate(options, into: &report)
  } else if options.reads {
    do {
      try ReadsBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else if options.shared {
    do {
      try SharedDaemonBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else if options.places > 0 {
    do {
      try await PlacesBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else if options.products > 0 {
    do {
      try ProductsBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else if options.liveFeeds {
    do {
      try LiveFeedsBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else if options.feeds {
    do {
      try FeedsBenchmark(options: options).run(into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  } else {
    guard access(options.binary, X_OK) == 0 else {
      printError(
        "catalogd-bench: no executable at \(options.binary): build it with "
          + "`swift build -c release`, or pass --binary or set CATALOGD_BIN")
      return 1
    }
    do {
      measure(options, watchdog: try Watchdog(), into: &report)
    } catch {
      printError("catalogd-bench: \(error)")
      return 1
    }
  }
  report.finish()
  return report.failed ? 1 : 0
}

func measure(_ options: Options, watchdog: Watchdog, into report: inout Report) {
  let framing = options.framings[0]  // Of the latency and start-up runs.
  report.setting("binary", jsonString(options.binary))
  report.setting("requests", "\(options.requests)")
  report.setting("pingpong", "\(options.pingPongRoundTrips)")
  report.setting("spawns", "\(options.spawns)")
  report.setting("latencyFraming", jsonString(framing.rawValue))
  let timeout = options.timeoutSeconds

  var peaks: [Int] = []
  var peakError = "no throughput run finished"
  for throughputFraming in options.framings where options.requests > 0 {
    let name = throughputFraming.rawValue
    let key = name.prefix(1).uppercased() + name.dropFirst()
    var figure = Figure(
      key: "throughput" + key, label: "throughput \(name)", unit: "req/s", decimals: 0,
      target: .atLeast(Target.requestsPerSecond))
    // Not a target: evidence that the bench was not what limited the figure above it.
    var benchProcessor = Figure(
      key: "benchCpu" + key, label: "  bench CPU", unit: "% of a core", decimals: 0)
    do {
      let run = try Throughput(
        binary: options.binary, framing: throughputFraming, requests: options.requests,
        watchdog: watchdog, timeoutSeconds: timeout)
      figure.value = run.requestsPerSecond
      benchProcessor.value = run.benchProcessorPercent
      peaks.append(run.peakResidentKilobytes)
    } catch {
      figure.error = "\(error)"
      benchProcessor.error = "\(error)"
      peakError = "\(error)"
    }
    report.add(figure)
    report.add(benchProcessor)
  }

  if options.pingPongRoundTrips > 0 {
    var p50 = Figure(
      key: "pingPongP50", label: "ping-pong p50", unit: "µs", decimals: 1,
      target: .atMost(Target.pingPongP50Microseconds))
    var p99 = Figure(key: "pingPongP99", label: "ping-pong p99", unit: "µs", decimals: 1)
    var maximum = Figure(key: "pingPongMax", label: "ping-pong max", unit: "µs", decimals: 1)
    do {
      let latencies = try PingPong(
        binary: options.binary, framing: framing, roundTrips: options.pingPongRoundTrips,
        watchdog: watchdog, timeoutSeconds: timeout
      ).latencies
      p50.value = Double(latencies.median) / 1e3
      p99.value = Double(latencies.at(99)) / 1e3
      maximum.value = Double(latencies.max) / 1e3
    } catch {
      p50.error = "\(error)"
      p99.error = "\(error)"
      maximum.error = "\(error)"
    }
    for figure in [p50, p99, maximum] { report.add(figure) }
  }

  if options.spawns > 0 {
    var median = Figure(
      key: "startMedian", label: "start median", unit: "ms", decimals: 2,
      target: .atMost(Target.startMilliseconds))
    var p90 = Figure(key: "startP90", label: "start p90", unit: "ms", decimals: 2)
    do {
      let times = try Startup(
        binary: options.binary, framing: framing, spawns: options.spawns, watchdog: watchdog,
        timeoutSeconds: timeout
      ).times
      median.value = Double(times.median) / 1e6
      p90.value = Double(times.at(90)) / 1e6
    } catch {
      median.error = "\(error)"
      p90.error = "\(error)"
    }
    report.add(median)
    report.add(p90)
  }

  if options.requests > 0 {
    var peak = Figure(
      key: "peakRss", label: "peak RSS", unit: "MB", decimals: 1,
      target: .atMost(Target.peakResidentMegabytes))
    if let kilobytes = peaks.max() {
      peak.value = Double(kilobytes) / 1024
    } else {
      peak.error = peakError
    }
    report.add(peak)
  }
}

func calibrate(_ options: Options, into report: inout Report) {
  let requests = 1_000_000
  report.setting("calibrationRequests", "\(requests)")
  for framing in options.framings {
    let name = framing.rawValue
    let key = name.prefix(1).uppercased() + name.dropFirst()
    var write = Figure(
      key: "benchWrite" + key, label: "bench write \(name)", unit: "req/s", decimals: 0)
    var read = Figure(
      key: "benchRead" + key, label: "bench read \(name)", unit: "req/s", decimals: 0)
    do {
      let ceiling = try Calibration(framing: framing, requests: requests)
      write.value = ceiling.writesPerSecond
      read.value = ceiling.readsPerSecond
    } catch {
      write.error = "\(error)"
      read.error = "\(error)"
    }
    report.add(write)
    report.add(read)
  }
}

/// One line on stderr. Not through `stderr`: Swift 6 rejects that C global as shared mutable state.
func printError(_ text: String) {
  let line = Array((text + "\n").utf8)
  line.withUnsafeBytes { _ = try? writeAll(2, $0) }  // Nowhere left to report a failure.
}

// A daemon that dies mid-run must not take the bench with it: the write fails with EPIPE
// instead, and is reported.
signal(SIGPIPE, SIG_IGN)
exit(await run(CommandLine.arguments.dropFirst()))
