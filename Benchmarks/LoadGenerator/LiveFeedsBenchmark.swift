import Glibc
import Services

/// The live feed figures of issue 13, through the daemon on a catalog of
/// `--feed-products` products: one create delivered as `feeds/itemsChanged`
/// to 1,000 open products feeds of 200 loaded items each, and a change made
/// by another daemon on the same catalog reaching a feed (the embedded
/// catalog, and with `--postgres` a PostgreSQL one), and a file added to a
/// folder of `--photo-files` images reaching the photos feeds open on it.
struct LiveFeedsBenchmark {
  /// Timed creates with the feeds open, and as many without, after `warmUp` of each.
  static let creates = 200
  static let warmUp = 20
  /// Changes made by the other daemon, each timed to the feed's step.
  static let remoteChanges = 100
  /// Files added to the photos folder, each timed to its steps, and the feeds open on it.
  static let folderChanges = 50
  static let folderFeeds = 10
  static let feedPageSize = 100
  static let loadedItems = 200

  enum Target {
    static let deliveryMilliseconds = 5.0
    static let perFeedMicroseconds = 20.0
    static let sqliteRemoteMilliseconds = 200.0
    static let postgresRemoteMilliseconds = 30.0
    static let folderMilliseconds = 300.0
  }

  let options: Options

  func run(into report: inout Report) throws {
    let count = options.feedProducts
    report.setting("feedProducts", "\(count)")
    report.setting("openFeeds", "\(options.openFeeds)")
    report.setting("photoFiles", "\(options.photoFiles)")
    let catalog = try seededCatalog(count, binary: options.binary)
    for figure in try delivery(catalog) { report.add(figure) }
    report.add(try folderChange(try generatedPhotoFolder(options.photoFiles)))

    report.add(
      try remoteChange(
        watcher: ["--data-dir", catalog.path], writer: ["--data-dir", catalog.path],
        "remoteStepSqlite", "other daemon's create → step p50",
        target: Target.sqliteRemoteMilliseconds))
    if options.postgres {
      let cluster = try PostgresBenchCluster(products: count, binary: options.binary)
      defer { cluster.stop() }
      let (first, second) = (try TempDirectory(), try TempDirectory())
      report.add(
        try remoteChange(
          watcher: ["--data-dir", first.path, "--database-url", cluster.url],
          writer: ["--data-dir", second.path, "--database-url", cluster.url],
          "remoteStepPostgres", "pg other daemon's create → step p50",
          target: Target.postgresRemoteMilliseconds))
    }
  }

  // MARK: - One create, many feeds

  /// Creates timed from request to reply in one daemon, first with no feed
  /// open, then with `openFeeds` products feeds (newest first, 200 items
  /// loaded each) open: the create's reply comes after every feed's step, so
  /// the difference of the two p50s is what delivering the steps adds after
  /// the commit. Also the span from the first step read to the last.
  private func delivery(_ catalog: TempDirectory) throws -> [Figure] {
    let feeds = options.openFeeds
    let client = try LineClient(
      binary: options.binary,
      arguments: [
        "--data-dir", catalog.path, "--log-level", "error", "--max-open-feeds",
        String(max(feeds, 1)),
      ])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    let alone = try timedCreates(client, feeds: 0).roundTrips
    for _ in 0..<feeds {
      let opened = try client.call(
        #""feeds/open","params":{"source":"products","pageSize":\#(Self.feedPageSize)}"#)
      let feedId = try stringField("feedId", in: opened)
      for _ in 0..<(Self.loadedItems / Self.feedPageSize) {
        try expectResult(
          try client.call(#""feeds/loadMore","params":{"feedId":"\#(feedId)"}"#), "feeds/loadMore")
      }
    }
    let (withFeeds, spans) = try timedCreates(client, feeds: feeds)
    let peak = try client.process.peakResidentKilobytes()
    try client.close()

    let added = Double(Percentiles(withFeeds).at(50)) - Double(Percentiles(alone).at(50))
    var deliveryFigure = Figure(
      key: "stepsDelivery", label: "create → \(feeds) feeds' steps p50", unit: "ms", decimals: 3,
      target: .atMost(Target.deliveryMilliseconds))
    deliveryFigure.value = added / 1e6
    deliveryFigure.detail =
      "create p50 \(milliseconds(Percentiles(withFeeds).at(50))) ms with the feeds, "
      + "\(milliseconds(Percentiles(alone).at(50))) ms without"
    var perFeed = Figure(
      key: "stepPerFeed", label: "  one feed's step", unit: "µs", decimals: 2,
      target: .atMost(Target.perFeedMicroseconds))
    perFeed.value = feeds > 0 ? added / 1e3 / Double(feeds) : nil
    if feeds == 0 { perFeed.error = "needs --open-feeds 1 or more" }
    perFeed.detail = "placed, written as JSON and sent: the delivery over the feeds"
    var span = latencyFigure("stepsSpan", "  first to last step read p50", spans, target: nil)
    span.detail = (span.detail ?? "") + ", read by this client"
    var memory = Figure(
      key: "liveFeedsPeakRss", label: "  peak RSS, \(feeds) feeds × \(Self.loadedItems) items",
      unit: "MB", decimals: 1)
    memory.value = Double(peak) / 1024
    return [deliveryFigure, perFeed, span, memory]
  }

  /// `creates` timed creates (after `warmUp`), each checked to bring exactly
  /// one `feeds/itemsChanged` per open feed before its reply; their round
  /// trips, and the spans from the first step read to the last.
  private static let stepPrefix = Array(#"{"jsonrpc":"2.0","method":"feeds/itemsChanged""#.utf8)
  private static let notificationPrefix = Array(#"{"jsonrpc":"2.0","method""#.utf8)

  private func timedCreates(_ client: LineClient, feeds: Int) throws -> (
    roundTrips: [UInt64], spans: [UInt64]
  ) {
    var roundTrips: [UInt64] = []
    var spans: [UInt64] = []
    for index in 0..<(Self.warmUp + Self.creates) {
      let started = monotonicNanoseconds()
      try client.send(
        #""products/create","params":{"nameKo":"벤치 상품 \#(index)","price":\#(1000 + index)}"#)
      var steps = 0
      var (first, last): (UInt64, UInt64) = (0, 0)
      while true {
        // nil for a notification; the reply as text.
        let reply: String? = try client.withNextLine { line in
          if line.starts(with: Self.stepPrefix) {
            last = monotonicNanoseconds()
            if steps == 0 { first = last }
            steps += 1
            return nil
          }
          return line.starts(with: Self.notificationPrefix)
            ? nil : String(decoding: line, as: UTF8.self)
        }
        if let reply {
          try expectResult(reply, "products/create")
          break
        }
      }
      let elapsed = monotonicNanoseconds() - started
      guard steps == feeds else {
        throw BenchError.wrongReplies("a create brought \(steps) steps for \(feeds) feeds")
      }
      if index >= Self.warmUp {
        roundTrips.append(elapsed)
        if feeds > 0 { spans.append(last - first) }
      }
    }
    return (roundTrips, spans)
  }

  // MARK: - Another daemon's change

  /// Daemon A holds a products feed (newest first, one page loaded); daemon
  /// B, on the same catalog, creates products at random moments (so that the
  /// SQLite poll's phase is sampled evenly). Each is timed from B's request
  /// written (the commit comes after it) to A's step that inserts it read.
  private func remoteChange(
    watcher watcherArguments: [String], writer writerArguments: [String], _ key: String,
    _ label: String, target: Double
  ) throws -> Figure {
    let quiet = ["--log-level", "error"]
    let watcher = try LineClient(binary: options.binary, arguments: watcherArguments + quiet)
    let writer = try LineClient(binary: options.binary, arguments: writerArguments + quiet)
    _ = try watcher.call(#""initialize","params":{"clientId":"bench-a"}"#)
    _ = try writer.call(#""initialize","params":{"clientId":"bench-b"}"#)
    let opened = try watcher.call(#""feeds/open","params":{"source":"products"}"#)
    let feedId = try stringField("feedId", in: opened)
    try expectResult(
      try watcher.call(#""feeds/loadMore","params":{"feedId":"\#(feedId)"}"#), "feeds/loadMore")
    var random = SystemRandomNumberGenerator()
    var samples: [UInt64] = []
    for index in 0..<(Self.remoteChanges + 5) {
      usleep(UInt32.random(in: 0..<100_000, using: &random))
      let started = monotonicNanoseconds()
      let reply = try writer.call(
        #""products/create","params":{"nameKo":"원격 상품 \#(index)","price":1000}"#)
      try expectResult(reply, "products/create")
      let id = try stringField("id", in: reply)
      while true {
        let line = try watcher.readLine()
        if line.hasPrefix(#"{"jsonrpc":"2.0","method":"feeds/itemsChanged""#)
          && line.contains(#""id":"\#(id)""#)
        {
          break
        }
      }
      // The first few also open the catalog's watch in each daemon: not timed.
      if index >= 5 { samples.append(monotonicNanoseconds() - started) }
    }
    try watcher.close()
    try writer.close()
    return latencyFigure(key, label, samples, target: target)
  }

  // MARK: - A photos folder

  /// `folderFeeds` photos feeds (a page of 30 each) over `folder`, in a
  /// daemon on a fresh data dir; `folderChanges` times an image is moved
  /// into the folder under a name that sorts first (so it lands in every
  /// feed's loaded items), timed from the rename to the last feed's step
  /// read, then removed again (its steps awaited, untimed), so the folder
  /// stays as generated.
  private func folderChange(_ folder: String) throws -> Figure {
    let dataDirectory = try TempDirectory()
    let client = try LineClient(
      binary: options.binary,
      arguments: ["--data-dir", dataDirectory.path, "--photos-dir", folder, "--log-level", "error"])
    _ = try client.call(#""initialize","params":{"clientId":"bench"}"#)
    for _ in 0..<Self.folderFeeds {
      let opened = try client.call(#""feeds/open","params":{"source":"photos"}"#)
      let feedId = try stringField("feedId", in: opened)
      try expectResult(
        try client.call(#""feeds/loadMore","params":{"feedId":"\#(feedId)"}"#), "feeds/loadMore")
    }
    let image = HeaderOnlyImage.png(width: 640, height: 480, padding: 100)
    var samples: [UInt64] = []
    for index in 0..<Self.folderChanges {
      // Written under a hidden name, which the index skips, then moved in whole.
      let hidden = folder + "/.bench-\(index).png"
      let visible = folder + "/!bench-\(index).png"
      try writeFile(hidden, image)
      let started = monotonicNanoseconds()
      guard rename(hidden, visible) == 0 else {
        throw BenchError.system(call: "rename \(hidden)", errno: errno)
      }
      try awaitSteps(client)
      samples.append(monotonicNanoseconds() - started)
      unlink(visible)
      try awaitSteps(client)
    }
    try client.close()
    var figure = latencyFigure(
      "folderStep", "file added → \(Self.folderFeeds) photos feeds p50", samples,
      target: Target.folderMilliseconds)
    figure.detail = (figure.detail ?? "") + ", \(options.photoFiles) files"
    return figure
  }

  /// Reads until every photos feed sent its step.
  private func awaitSteps(_ client: LineClient) throws {
    var steps = 0
    while steps < Self.folderFeeds {
      if try client.readLine().hasPrefix(#"{"jsonrpc":"2.0","method":"feeds/itemsChanged""#) {
        steps += 1
      }
    }
  }

  private func milliseconds(_ nanoseconds: UInt64) -> String {
    formatted(Double(nanoseconds) / 1e6, decimals: 3, grouped: false)
  }
}
