import Services

/// Pipelined throughput: one thread writes every request in one large write while this one
/// tallies the replies as they come.
struct Throughput {
  let requestsPerSecond: Double
  /// The bench's own CPU time over the wall time of the same span (thread start to join), in
  /// percent of one core.
  let benchProcessorPercent: Double
  /// The daemon's peak resident set size, read just before shutdown, in KiB.
  let peakResidentKilobytes: Int

  /// Echoes `requests` times; the clock runs from the first byte written to the last reply read.
  init(
    binary: String, framing: Framing, requests: Int, watchdog: Watchdog, timeoutSeconds: Int,
    arguments: [String] = []
  ) throws {
    let requestBytes = Request.echoes(1...requests, framing: framing).bytes
    let session = try DaemonSession(
      binary: binary, framing: framing, watchdog: watchdog, timeoutSeconds: timeoutSeconds,
      arguments: arguments)
    let input = session.process.input
    let (processorAtStart, wallAtStart) = (processorNanoseconds(), monotonicNanoseconds())
    let writer = try NativeThread { () -> Result<UInt64, BenchError> in
      let startedAt = monotonicNanoseconds()
      do {
        try requestBytes.withUnsafeBytes { try writeAll(input, $0) }
      } catch {
        return .failure(error as? BenchError ?? .harness("\(error)"))
      }
      return .success(startedAt)
    }
    var tally = ReplyTally(ids: 1...requests)
    let finishedAt: UInt64
    do {
      try session.reader.read(replies: requests, into: &tally)
      finishedAt = monotonicNanoseconds()
    } catch {
      let failure = session.failure(error)
      _ = writer.join()  // Returns: the daemon is dead, so a blocked write fails with EPIPE.
      throw failure
    }
    guard let written = writer.join() else { throw BenchError.harness("the writer left no result") }
    let processor = processorNanoseconds() - processorAtStart
    let wall = monotonicNanoseconds() - wallAtStart
    let startedAt = try session.guarded { try written.get() }
    try session.guarded { try tally.verify() }
    requestsPerSecond = Double(requests) * 1e9 / Double(finishedAt - startedAt)
    benchProcessorPercent = Double(processor) * 100 / Double(wall)
    peakResidentKilobytes = try session.process.peakResidentKilobytes()
    try session.shutdown()
  }
}
