import Glibc
import Services

/// The feeds and photos figures of issue 4, through the daemon: the folder
/// index built from nothing with the OS caches dropped (and warm), the same
/// folder reopened with its index cached, `feeds/loadMore` round trips on the
/// photos and products sources, and the memory of many open feeds holding a
/// page each in one daemon.
struct FeedsBenchmark {
  /// Timed `feeds/loadMore` round trips per source, after `warmUp` untimed ones.
  static let loadMoreSamples = 2_000
  static let warmUp = 100

  enum Target {
    static let indexFilesPerSecond = 20_000.0
    static let reopenSeconds = 1.0
    static let feedsMegabytes = 50.0
  }

  let options: Options

  func run(into report: inout Report) throws {
    let files = options.photoFiles
    let folder = try generatedPhotoFolder(files)
    report.setting("photoFiles", "\(files)")
    report.setting("feedProducts", "\(options.feedProducts)")
    report.setting("openFeeds", "\(options.openFeeds)")

    // Indexing from nothing: a fresh data dir, so no photos.sqlite.
    let indexed = try TempDirectory()
    let (coldSeconds, method) = try timeFirstList(folder, dataDirectory: indexed, cold: true)
    report.setting("coldCache", jsonString(method?.rawValue ?? ""))
    report.add(
      indexFigure("photosIndexCold", "photos index cold", files, coldSeconds, method: method))
    let warm = try TempDirectory()
    let (warmSeconds, _) = try timeFirstList(folder, dataDirectory: warm, cold: false)
    report.add(indexFigure("photosIndexWarm", "photos index warm", files, warmSeconds))

    // Reopening: the data dir of the cold run, whose photos.sqlite knows every file.
    let (reopenColdSeconds, _) = try timeFirstList(folder, dataDirectory: indexed, cold: true)
    var reopenCold = Figure(
      key: "photosReopenCold", label: "photos reopen cold", unit: "s", decimals: 2,
      target: .atMost(Target.reopenSeconds))
    reopenCold.value = reopenColdSeconds
    reopenCold.detail = method?.rawValue
    report.add(reopenCold)
    let client = try photosDaemon(folder, dataDirectory: indexed)
    let started = monotonicNanoseconds()
    try expectResult(try client.call(#""photos/list","params":{"limit":30}"#), "photos/list")
    var reopen = Figure(
      key: "photosReopen", label: "photos reopen", unit: "s", decimals: 2,
      target: .atMost(Target.reopenSeconds))
    reopen.value = Double(monotonicNanoseconds() - started) / 1e9
    report.add(reopen)

    report.add(
      try loadMoreLatency(client, source: "photos", "loadMorePhotos", "loadMore photos p50"))
    try client.close()

    let catalog = try seededCatalog(options.feedProducts, binary: options.binary)
    let products = try LineClient(
      binary: options.binary, arguments: ["--data-dir", catalog.path, "--log-level", "error"])
    _ = try products.call(#""initialize","params":{"clientId":"bench"}"#)
    report.add(
      try loadMoreLatency(products, source: "products", "loadMoreProducts", "loadMore products p50")
    )
    try products.close()

    for figure in try openFeedsMemory() { report.add(figure) }
  }

  /// A daemon listing `folder`, initialized.
  private func photosDaemon(_ folder: String, dataDirectory: TempDirectory) throws -> LineClient {
    let client = try LineClient(
      binary: options.binary,
      arguments: [
        "--data-dir", dataDirectory.path, "--photos-dir", folder, "--log-level", "error",
      ])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    return client
  }

  /// Seconds from a new daemon's first `photos/list` request to its reply:
  /// the folder is indexed (or its cached index checked) on that first call,
  /// not at start. With `cold`, the OS caches are emptied just before it; the
  /// way it was done is returned (see `ColdCache`).
  private func timeFirstList(_ folder: String, dataDirectory: TempDirectory, cold: Bool) throws
    -> (seconds: Double, method: ColdCache.Method?)
  {
    let client = try photosDaemon(folder, dataDirectory: dataDirectory)
    let method = cold ? ColdCache.drop([folder, dataDirectory.path]) : nil
    let started = monotonicNanoseconds()
    let reply = try client.call(#""photos/list","params":{"limit":30}"#)
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    try expectResult(reply, "photos/list")
    try client.close()
    return (seconds, method)
  }

  private func indexFigure(
    _ key: String, _ label: String, _ files: Int, _ seconds: Double,
    method: ColdCache.Method? = nil
  ) -> Figure {
    var figure = Figure(
      key: key, label: label, unit: "files/s", decimals: 0,
      target: method == nil ? nil : .atLeast(Target.indexFilesPerSecond))
    figure.value = Double(files) / seconds
    figure.detail =
      "\(formatted(seconds, decimals: 2, grouped: false)) s"
      + (method.map { ", " + $0.rawValue } ?? "")
    return figure
  }

  /// `feeds/loadMore` round trips, each timed from its request written to its
  /// reply read (its `stateChanged` and `pageLoaded` notifications come
  /// first). A feed is opened with the source's default page size, loaded to
  /// its end (at most 10,000 items a feed), closed, and another opened until
  /// there are enough samples.
  private func loadMoreLatency(
    _ client: LineClient, source: String, _ key: String, _ label: String
  ) throws -> Figure {
    var samples: [UInt64] = []
    var loads = 0
    while samples.count < Self.loadMoreSamples {
      let opened = try client.call(#""feeds/open","params":{"source":"\#(source)"}"#)
      let feedId = try stringField("feedId", in: opened)
      let load = #""feeds/loadMore","params":{"feedId":"\#(feedId)"}"#
      var ended = false
      while !ended && samples.count < Self.loadMoreSamples {
        let notifications = client.notificationsSkipped
        let started = monotonicNanoseconds()
        let reply = try client.call(load)
        let elapsed = monotonicNanoseconds() - started
        try expectResult(reply, label)
        ended = reply.contains(#""endReached":true"#)
        // Every call here fetches (none is made past the end), so its reply comes after
        // stateChanged loading, pageLoaded and stateChanged idle or ended.
        if client.notificationsSkipped - notifications < 3 {
          throw BenchError.wrongReplies("\(label): a reply before its notifications: \(reply)")
        }
        loads += 1
        if loads > Self.warmUp { samples.append(elapsed) }
      }
      try expectResult(
        try client.call(#""feeds/close","params":{"feedId":"\#(feedId)"}"#), "feeds/close")
    }
    return latencyFigure(key, label, samples, target: nil)
  }

  /// One daemon (on a fresh data dir, so the photos are its generated
  /// samples) with `openFeeds` photos feeds open, each holding its first page
  /// of 30; the bound on open feeds is raised to that count with
  /// `--max-open-feeds`. Figures: the daemon's peak RSS, and what each feed
  /// after the first added to its RSS.
  private func openFeedsMemory() throws -> [Figure] {
    let count = options.openFeeds
    let dataDirectory = try TempDirectory()
    let client = try LineClient(
      binary: options.binary,
      arguments: [
        "--data-dir", dataDirectory.path, "--log-level", "error",
        "--max-open-feeds", String(max(count, 1)),
      ])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    var afterFirst = 0
    for index in 0..<count {
      let opened = try client.call(#""feeds/open","params":{"source":"photos"}"#)
      let feedId = try stringField("feedId", in: opened)
      try expectResult(
        try client.call(#""feeds/loadMore","params":{"feedId":"\#(feedId)"}"#), "feeds/loadMore")
      // The first feed also starts the photos service (samples, index): not a feed's cost.
      if index == 0 { afterFirst = try client.process.residentKilobytes() }
    }
    let resident = try client.process.residentKilobytes()
    let peak = try client.process.peakResidentKilobytes()
    try client.close()

    var peakFigure = Figure(
      key: "feedsPeakRss", label: "\(count) feeds peak RSS", unit: "MB", decimals: 1,
      target: .atMost(Target.feedsMegabytes))
    peakFigure.value = Double(peak) / 1024
    var perFeed = Figure(key: "feedRss", label: "  RSS per feed", unit: "KB", decimals: 1)
    if count > 1 {
      perFeed.value = Double(resident - afterFirst) / Double(count - 1)
    } else {
      perFeed.error = "needs --open-feeds 2 or more"
    }
    return [peakFigure, perFeed]
  }
}
