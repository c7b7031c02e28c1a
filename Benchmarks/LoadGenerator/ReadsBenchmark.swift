import Glibc
import Services
import Synchronization

/// Tells a thread to stop.
private final class StopSignal: Sendable {
  private let stopped = Atomic(false)
  var isSet: Bool { stopped.load(ordering: .relaxed) }
  func set() { stopped.store(true, ordering: .relaxed) }
}

/// The reads' round trips as ratios to the echo round trip of the same run
/// (issue 18): one daemon on a catalog of `--products` products (default a
/// million) and a places file of `--places` places (default a million).
/// Requests of each kind are sent in turn, one at a time, so every kind
/// meets the same machine; each kind's p50 is divided by the echo's. A line
/// sent through `/bin/cat` takes its turn with them: the round trip of a
/// process that parses nothing, so the machine's own floor and tail are
/// measured beside the daemon's. Then the same with another daemon on the
/// catalog creating 1,000 products a second, and pipelined gets of random ids.
///
/// The warm-up searches each places centre once, so that the measured
/// searches are all of areas searched before (a map showing the same
/// streets again): the first search of an area also reads its places from
/// the file. Those first searches are a figure of their own, without a
/// target: mixed in, they were the p99 of the repeated ones.
struct ReadsBenchmark {
  static let rounds = 4_000
  static let warmUpRounds = 300
  static let pipelinedGets = 100_000
  static let createsPerSecond = 1_000

  /// A kind of request, its target as a multiple of the echo round trip.
  struct Kind {
    let key: String
    let label: String
    let target: Double?
    let request: (Int) -> String
  }

  let options: Options

  func run(into report: inout Report) throws {
    let binary = options.binary
    let products = options.products > 0 ? options.products : 1_000_000
    let places = options.places > 0 ? options.places : 1_000_000
    report.setting("products", "\(products)")
    report.setting("places", "\(places)")
    let work = try seededCatalog(products, binary: binary)
    let placesFolder = try PlacesDataSet.seeded(count: places, binary: binary)
    try spawnAndWait("/bin/cp", [placesFolder + "/places.sqlite", work.path + "/places.sqlite"])
    let queries = PlacesBenchmark.queryCenters(try PlacesDataSet(folder: placesFolder))
    let client = try LineClient(
      binary: binary, arguments: ["--data-dir", work.path, "--log-level", "error"])
    defer { try? client.close() }
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    // cat writes back each line as it reads it: its "reply" is the request.
    let cat = try LineClient(binary: "/bin/cat", arguments: [])
    defer {
      cat.process.closeInput()
      _ = try? cat.process.wait()
    }

    let depth = min(900_000, max(products - 100, 0))
    let deepCursor = try cursor(after: depth, through: client)
    let feed = try stringField(
      "feedId", in: try client.call(#""feeds/open","params":{"source":"products"}"#))
    _ = try client.call(#""feeds/loadMore","params":{"feedId":"\#(feed)"}"#)
    var random = SystemRandomNumberGenerator()
    let kinds = [
      Kind(key: "echo", label: "echo", target: nil) { _ in #""daemon/echo","params":{}"# },
      Kind(key: "get", label: "get", target: 3) { _ in
        #""products/get","params":{"id":"\#(Int.random(in: 1...products, using: &random))"}"#
      },
      Kind(key: "listFirst", label: "list first page", target: 6) { _ in
        #""products/list","params":{"limit":20}"#
      },
      Kind(key: "listDeep", label: "list page \(depth) deep", target: 6) { _ in
        #""products/list","params":{"limit":20,"cursor":"\#(deepCursor)"}"#
      },
      Kind(key: "feedItems", label: "feeds/items 30", target: 3) { _ in
        #""feeds/items","params":{"feedId":"\#(feed)","start":0,"end":30}"#
      },
      Kind(key: "placesSearch", label: "places 1 km, 15", target: 4) { index in
        queries[index % queries.count].at(radius: 1_000).request
      },
    ]
    // Builds the places index, reading (nearly) no places: a metre around a centre.
    _ = try client.call(queries[0].at(radius: 1).request)
    let warmUpRounds = max(Self.warmUpRounds, queries.count)
    let getTimingsBefore = try DaemonTimings("products/get", through: client)
    let quiet = try ratios(kinds, warmUpRounds: warmUpRounds, through: client, beside: cat)
    report.addRatios(quiet.kinds, suffix: "")
    if let places = kinds.firstIndex(where: { $0.key == "placesSearch" }) {
      report.addFirstSearches(Percentiles(quiet.warmUp[places]), echo: quiet.kinds[0].1)
    }
    report.addFloor(quiet.cat, suffix: "")
    let getTimingsAfter = try DaemonTimings("products/get", through: client)
    var inside = Figure(key: "getInside", label: "get inside daemon", unit: "ms", decimals: 3)
    inside.value = getTimingsAfter.percentile(50, since: getTimingsBefore).milliseconds
    inside.detail = "p50 from receiving the request to handing over its reply (bucket bound)"
    report.add(inside)

    // Another client, a daemon of its own on the same catalog, creates steadily meanwhile.
    let writer = try LineClient(
      binary: binary, arguments: ["--data-dir", work.path, "--log-level", "error"])
    _ = try writer.call(#""initialize","params":{"clientId":"bench-writer"}"#)
    let (input, output) = (writer.process.input, writer.process.output)
    let stop = StopSignal()
    let pacer = try NativeThread { () -> Int in
      var sent = 0
      let started = monotonicNanoseconds()
      while !stop.isSet {
        let due = started + UInt64(sent) * 1_000_000_000 / UInt64(Self.createsPerSecond)
        let now = monotonicNanoseconds()
        if now < due {
          var pause = timespec(tv_sec: 0, tv_nsec: Int(due - now))
          nanosleep(&pause, nil)
          continue
        }
        let line =
          #"{"jsonrpc":"2.0","id":\#(3_000_000 + sent),"method":"products/create","params":"#
          + #"{"nameKo":"쓰기 부하 \#(sent)","price":1}}"# + "\n"
        guard (try? Array(line.utf8).withUnsafeBytes({ try writeAll(input, $0) })) != nil
        else { break }
        sent += 1
      }
      return sent
    }
    // Reads the writer's replies until it exits, so that its pipe never fills.
    let drainer = try NativeThread { () -> String? in
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      var failure: String?
      while true {
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count <= 0 { return failure }
        if failure == nil,
          let error = chunk.withUnsafeBytes({
            firstIndex(of: #""error":"#, in: UnsafeRawBufferPointer(rebasing: $0[..<count]))
          })
        {
          failure = String(decoding: chunk[error..<min(count, error + 300)], as: UTF8.self)
        }
      }
    }
    let writesTimingsBefore = try DaemonTimings("products/get", through: client)
    let underWrites = try ratios(
      kinds, warmUpRounds: warmUpRounds, through: client, beside: cat)
    let writesTimingsAfter = try DaemonTimings("products/get", through: client)
    stop.set()
    let sent = pacer.join() ?? 0
    let goodbye =
      #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"# + "\n"
      + #"{"jsonrpc":"2.0","method":"exit"}"# + "\n"
    try Array(goodbye.utf8).withUnsafeBytes { try writeAll(input, $0) }
    writer.process.closeInput()
    _ = try writer.process.wait()
    if case let failure?? = drainer.join() {
      throw BenchError.wrongReplies("the writing daemon: \(failure)")
    }
    report.addRatios(underWrites.kinds, suffix: " (writes)")
    report.addFloor(underWrites.cat, suffix: " (writes)")
    var writes = Figure(key: "writerCreates", label: "creates meanwhile", unit: "", decimals: 0)
    writes.value = Double(sent)
    writes.detail = "at \(Self.createsPerSecond)/s from another daemon on the catalog"
    report.add(writes)
    var insideUnderWrites = Figure(
      key: "getInsideWrites", label: "get inside daemon (writes)", unit: "ms", decimals: 3)
    insideUnderWrites.value =
      writesTimingsAfter.percentile(50, since: writesTimingsBefore).milliseconds
    insideUnderWrites.detail = inside.detail
    report.add(insideUnderWrites)

    report.add(try pipelined(products: products, through: client))
  }

  /// Each kind's round trips, taken in turn, one at a time, and a line's
  /// round trip through `cat` in each turn; the warm-up's round trips apart.
  private func ratios(
    _ kinds: [Kind], warmUpRounds: Int, through client: LineClient, beside cat: LineClient
  ) throws -> (kinds: [(Kind, Percentiles)], cat: Percentiles, warmUp: [[UInt64]]) {
    var samples = [[UInt64]](repeating: [], count: kinds.count)
    var warmUp = samples
    var catSamples: [UInt64] = []
    for round in 0..<(Self.rounds + warmUpRounds) {
      let catElapsed = try cat.timedCall(#""daemon/echo","params":{}"#, "cat")
      if round >= warmUpRounds { catSamples.append(catElapsed) }
      for (number, kind) in kinds.enumerated() {
        let text = kind.request(round)
        let elapsed = try client.timedCall(text, kind.label)
        if round >= warmUpRounds {
          samples[number].append(elapsed)
        } else {
          warmUp[number].append(elapsed)
        }
      }
    }
    return (
      zip(kinds, samples.map(Percentiles.init)).map { ($0, $1) }, Percentiles(catSamples), warmUp
    )
  }

  /// The cursor of the page that starts `depth` products in (newest first).
  private func cursor(after depth: Int, through client: LineClient) throws -> String {
    var cursor = ""
    var walked = 0
    while walked < depth {
      let cursorParam = cursor.isEmpty ? "" : #","cursor":"\#(cursor)""#
      cursor = try stringField(
        "nextCursor", in: try client.call(#""products/list","params":{"limit":100\#(cursorParam)}"#)
      )
      walked += 100
    }
    return cursor
  }

  /// Gets of random ids written as fast as the pipe takes them while another
  /// thread reads the replies.
  private func pipelined(products: Int, through client: LineClient) throws -> Figure {
    var random = SystemRandomNumberGenerator()
    var text = ""
    for index in 0..<Self.pipelinedGets {
      text +=
        #"{"jsonrpc":"2.0","id":\#(2_000_000 + index),"method":"products/get","params":"#
        + #"{"id":"\#(Int.random(in: 1...products, using: &random))"}}"# + "\n"
    }
    let bytes = Array(text.utf8)
    let input = client.process.input
    let started = monotonicNanoseconds()
    let writer = try NativeThread { () -> Bool in
      (try? bytes.withUnsafeBytes { try writeAll(input, $0) }) != nil
    }
    try client.skipReplies(Self.pipelinedGets)
    guard writer.join() == true else { throw BenchError.harness("writing the gets failed") }
    var figure = Figure(
      key: "pipelinedGets", label: "pipelined gets", unit: "req/s", decimals: 0,
      target: .atLeast(150_000))
    figure.value = Double(Self.pipelinedGets) * 1e9 / Double(monotonicNanoseconds() - started)
    return figure
  }
}

extension Report {
  /// Each kind's p50 as a multiple of the echo's (the first kind), beside its
  /// target, and its p99 as a multiple of its p50 (target ≤ 3).
  fileprivate mutating func addRatios(
    _ measured: [(ReadsBenchmark.Kind, Percentiles)], suffix: String
  ) {
    guard let echo = measured.first?.1 else { return }
    let unit = Double(echo.at(50))
    var echoFigure = Figure(
      key: "echo" + suffix.filter(\.isLetter), label: "echo p50" + suffix, unit: "µs", decimals: 1)
    echoFigure.value = unit / 1e3
    echoFigure.detail =
      "the unit of the ratios below; p99 \(microseconds(echo.at(99)))"
    add(echoFigure)
    for (kind, percentiles) in measured.dropFirst() {
      let p50 = Double(percentiles.at(50))
      let p99 = Double(percentiles.at(99))
      var ratio = Figure(
        key: kind.key + "Ratio" + suffix.filter(\.isLetter), label: kind.label + suffix,
        unit: "× echo", decimals: 2, target: kind.target.map { .atMost($0) })
      ratio.value = p50 / unit
      ratio.detail =
        "p50 \(microseconds(percentiles.at(50))), p99 \(microseconds(percentiles.at(99)))"
      add(ratio)
      var tail = Figure(
        key: kind.key + "TailRatio" + suffix.filter(\.isLetter),
        label: kind.label + " p99/p50" + suffix,
        unit: "×", decimals: 2, target: .atMost(3))
      tail.value = p99 / p50
      add(tail)
    }
  }

  /// The first search of each places centre (in the warm-up): no target.
  fileprivate mutating func addFirstSearches(_ first: Percentiles, echo: Percentiles) {
    let p50 = Double(first.at(50))
    var figure = Figure(
      key: "placesFirstRatio", label: "places 1 km, 15, first search of an area", unit: "× echo",
      decimals: 2)
    figure.value = p50 / Double(echo.at(50))
    figure.detail =
      "its places read from the file; p50 \(microseconds(first.at(50))), "
      + "p99 \(microseconds(first.at(99)))"
    add(figure)
  }

  /// The round trip through `cat`: no target, the floor the figures above stand on.
  fileprivate mutating func addFloor(_ cat: Percentiles, suffix: String) {
    let p50 = Double(cat.at(50))
    let p99 = Double(cat.at(99))
    var floor = Figure(
      key: "catEcho" + suffix.filter(\.isLetter), label: "cat echo p50" + suffix, unit: "µs",
      decimals: 1)
    floor.value = p50 / 1e3
    floor.detail =
      "a process that parses nothing; p99 \(microseconds(cat.at(99))), "
      + "p99/p50 \(formatted(p99 / p50, decimals: 2, grouped: false))"
    add(floor)
  }
}

/// Nanoseconds as microseconds, to a tenth: "12.3 µs".
private func microseconds(_ nanoseconds: UInt64) -> String {
  "\(formatted(Double(nanoseconds) / 1e3, decimals: 1, grouped: false)) µs"
}
