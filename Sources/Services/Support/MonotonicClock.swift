#if canImport(Glibc)
  import Glibc
#endif

/// Nanoseconds on the monotonic clock: what the daemon times requests with,
/// and the benchmarks their figures (one source, so the two compare).
public func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
