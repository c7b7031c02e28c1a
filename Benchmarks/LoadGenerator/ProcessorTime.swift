import Glibc

/// CPU time this process has used so far (user and system, every thread), in nanoseconds: it
/// shows how much of the machine the bench itself took while the daemon was measured.
func processorNanoseconds() -> UInt64 {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func nanoseconds(_ time: timeval) -> UInt64 {
    UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000
  }
  return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}
