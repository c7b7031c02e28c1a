/// Start-up time: fresh daemons, each on an empty data dir, timed from posix_spawn to the
/// initialize reply read (see `DaemonSession`), then shut down before the next one starts.
struct Startup {
  /// Start-up times in nanoseconds.
  let times: Percentiles

  init(binary: String, framing: Framing, spawns: Int, watchdog: Watchdog, timeoutSeconds: Int)
    throws
  {
    var samples: [UInt64] = []
    for _ in 0..<spawns {
      let session = try DaemonSession(
        binary: binary, framing: framing, watchdog: watchdog, timeoutSeconds: timeoutSeconds)
      samples.append(session.startNanoseconds)
      try session.shutdown()
    }
    times = Percentiles(samples)
  }
}
