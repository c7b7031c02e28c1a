import Glibc
import Services

/// The places figures of issue 5, on N places: `places/search` through the
/// daemon for radii of 1, 5 and 20 km, beside the same searches in-process on
/// the daemon's index, through SQLite's R*Tree module and by a brute-force
/// scan; and the index's build time and memory.
///
/// Every contender answers the same queries over the same data, and each of
/// its answers (the match count and the page's ids, in order) is checked
/// against the daemon's: a difference fails the figure.
struct PlacesBenchmark {
  static let radii = [1_000, 5_000, 20_000]
  /// Distinct query points; the timed samples cycle through them.
  static let queryPoints = 500
  static let daemonSamples = 2_000
  static let warmUp = 100
  /// The slow contenders take fewer samples (the first query points), as
  /// many at each radius as fit in a few seconds.
  static let bruteSamples = 200
  static let rtreeSamples = [1_000: 500, 5_000: 100, 20_000: 30]
  static let builds = 3

  enum Target {
    static let searchMilliseconds = 0.2
    static let searchRadius = 1_000
    static let rtreeRatio = 10.0
    static let indexMegabytes = 64.0
  }

  let options: Options

  func run(into report: inout Report) async throws {
    let count = options.places
    let folder = try PlacesDataSet.seeded(count: count, binary: options.binary)
    let data = try PlacesDataSet(folder: folder)
    guard data.count == count else {
      throw BenchError.harness("\(folder) holds \(data.count) places, not \(count)")
    }
    report.setting("places", "\(count)")
    report.setting("queryPoints", "\(Self.queryPoints)")

    // The daemon's own build, from the rows in SQLite, timed a few times.
    var builds: [(read: Duration, build: Duration)] = []
    var loaded: PlaceStore.LoadedIndex?
    for _ in 0..<Self.builds {
      let index = try await PlaceStore(path: folder + "/places.sqlite", demoCount: 0)
        .loadedIndex()
      builds.append((index.readDuration, index.buildDuration))
      loaded = index
    }
    guard let index = loaded?.index else { throw BenchError.harness("no index was built") }
    let buildTimes = Percentiles(builds.map { UInt64($0.build / .nanoseconds(1)) })
    let readTimes = Percentiles(builds.map { UInt64($0.read / .nanoseconds(1)) })
    var build = Figure(key: "indexBuild", label: "index build", unit: "ms", decimals: 0)
    build.detail =
      "median of \(Self.builds); reading the rows from SQLite before it \(milliseconds(readTimes.median)) ms"
    build.value = Double(buildTimes.median) / 1e6
    report.add(build)
    var memory = Figure(
      key: "indexMemory", label: "index memory", unit: "MB", decimals: 1,
      target: .atMost(Target.indexMegabytes))
    memory.value = Double(loaded?.memoryBytes ?? 0) / 1_048_576
    report.add(memory)

    let queries = Self.queryCenters(data)
    let rtree = try PlacesRTree(data)
    let brute = PlacesBruteForce(data: data)

    let client = try LineClient(
      binary: options.binary, arguments: ["--data-dir", folder, "--log-level", "error"])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    let residentBefore = try client.process.residentKilobytes()
    // The first search reads the rows and builds the index.
    let firstStarted = monotonicNanoseconds()
    _ = try client.call(queries[0].at(radius: 1_000).request)
    var first = Figure(key: "firstSearch", label: "first search", unit: "ms", decimals: 0)
    first.detail = "reads the rows and builds the index"
    first.value = Double(monotonicNanoseconds() - firstStarted) / 1e6
    report.add(first)

    for radius in Self.radii {
      let name = "\(radius / 1_000) km"
      let key = "\(radius / 1_000)km"
      let searches = queries.map { $0.at(radius: radius) }

      // Through the daemon; the first pass's answers are the reference.
      var answers: [PlacesAnswer] = []
      var samples: [UInt64] = []
      var timingsBefore: DaemonTimings?
      for sample in -Self.warmUp..<Self.daemonSamples {
        if sample == 0 { timingsBefore = try DaemonTimings("places/search", through: client) }
        let search = searches[(sample + Self.warmUp) % searches.count]
        let started = monotonicNanoseconds()
        let reply = try client.call(search.request)
        let elapsed = monotonicNanoseconds() - started
        if sample >= 0 { samples.append(elapsed) }
        if answers.count < searches.count {
          answers.append(try PlacesAnswer(reply: reply))
        }
      }
      let daemonMilliseconds = Double(Percentiles(samples).median) / 1e6
      report.add(latencyFigure("search\(key)P50", "daemon \(name) p50", samples, target: nil))
      if let timingsBefore {
        report.add(
          try inDaemonFigure(
            radius, since: timingsBefore, now: DaemonTimings("places/search", through: client)))
      }

      report.add(
        contender("index\(key)", "  index \(name)", searches, answers, Self.daemonSamples) {
          let result = index.search(
            PlaceIndex.Query(
              category: $0.category, area: .circle(center: $0.center, radius: $0.radius),
              sort: .distance, limit: PlacesQuery.pageSize))
          return PlacesAnswer(
            totalCount: result.totalCount, ids: result.hits.map { data.ids[$0.point] })
        })
      let rtreeFigure = contender(
        "rtree\(key)", "  R*Tree \(name)", searches, answers, Self.rtreeSamples[radius] ?? 30
      ) { try rtree.search($0).answer(data) }
      report.add(rtreeFigure)
      report.add(
        contender("brute\(key)", "  brute force \(name)", searches, answers, Self.bruteSamples) {
          brute.search($0).answer(data)
        })

      var ratio = Figure(
        key: "rtreeRatio\(key)", label: "  R*Tree ÷ daemon", unit: "×", decimals: 1,
        target: .atLeast(Target.rtreeRatio))
      if let rtreeMilliseconds = rtreeFigure.value {
        ratio.value = rtreeMilliseconds / daemonMilliseconds
      } else {
        ratio.error = rtreeFigure.error
      }
      report.add(ratio)
    }

    var resident = Figure(key: "daemonRss", label: "daemon RSS growth", unit: "MB", decimals: 1)
    resident.detail = "from initialize to after the last search"
    resident.value = Double(try client.process.residentKilobytes() - residentBefore) / 1024
    report.add(resident)
    try client.close()
  }

  /// A query point: a place's category, somewhere within about 200 m of it,
  /// so that the searches follow where the places are.
  struct Center {
    let category: PlaceCategory
    let center: PlaceCoordinate

    func at(radius: Int) -> PlacesQuery {
      PlacesQuery(category: category, x: center.x, y: center.y, radius: radius)
    }
  }

  /// The same query points on every run: places picked and moved by a fixed
  /// pseudo-random sequence.
  static func queryCenters(_ data: PlacesDataSet) -> [Center] {
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      // xorshift64*: enough to scatter the picks; nothing here needs more.
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 0x2545_F491_4F6C_DD1D
    }
    func offset() -> Double { Double(next() % 4_001) / 1e6 - 0.002 }
    return (0..<queryPoints).map { _ in
      let number = Int(next() % UInt64(data.count))
      return Center(
        category: PlaceCategory(rawValue: data.categories[number]) ?? .restaurant,
        center: PlaceCoordinate(x: data.xs[number] + offset(), y: data.ys[number] + offset()))
    }
  }

  /// Times `search` on the first `count` queries (cycling), checks each
  /// answer against the daemon's, and gives the p50 with the p99 beside it.
  private func contender(
    _ key: String, _ label: String, _ searches: [PlacesQuery], _ answers: [PlacesAnswer],
    _ count: Int, search: (PlacesQuery) throws -> PlacesAnswer
  ) -> Figure {
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    do {
      for sample in 0..<count {
        let query = searches[sample % searches.count]
        let started = monotonicNanoseconds()
        let answer = try search(query)
        samples.append(monotonicNanoseconds() - started)
        let expected = answers[sample % answers.count]
        guard answer == expected else {
          throw BenchError.wrongReplies(
            "\(label) answered \(answer.totalCount) \(answer.ids.prefix(3)) where the daemon "
              + "answered \(expected.totalCount) \(expected.ids.prefix(3)) (\(query.request))")
        }
      }
    } catch {
      var failed = Figure(key: key + "P50", label: label + " p50", unit: "ms", decimals: 3)
      failed.error = "\(error)"
      return failed
    }
    return latencyFigure(key + "P50", label + " p50", samples, target: nil)
  }

  /// The timed searches' p50 inside the daemon, from its own histogram:
  /// from the request's bytes read to the reply written, without the pipes
  /// and the wake-ups of the two processes.
  private func inDaemonFigure(
    _ radius: Int, since before: DaemonTimings, now after: DaemonTimings
  ) throws -> Figure {
    let (p50, count) = after.percentile(50, since: before)
    guard count == Self.daemonSamples else {
      throw BenchError.harness("the daemon timed \(count) searches, not \(Self.daemonSamples)")
    }
    var figure = Figure(
      key: "searchInDaemon\(radius / 1_000)kmP50", label: "  in-daemon \(radius / 1_000) km p50",
      unit: "ms", decimals: 3,
      target: radius == Target.searchRadius ? .atMost(Target.searchMilliseconds) : nil)
    figure.value = p50
    let p99 = after.percentile(99, since: before).milliseconds
    figure.detail = "p99 \(formatted(p99, decimals: 3, grouped: false)) ms (daemon/status)"
    return figure
  }

  private func milliseconds(_ nanoseconds: UInt64) -> String {
    formatted(Double(nanoseconds) / 1e6, decimals: 0, grouped: true)
  }
}
