#if canImport(Glibc)
  import Glibc
#endif

/// Starts a detached OS thread running `body`. The daemon's reader and
/// writer block in read(2) and write(2), which must not happen on the Swift
/// concurrency pool.
func startThread(stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let box = Unmanaged.passRetained(Box(body)).toOpaque()
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  pthread_attr_setstacksize(&attributes, stackSize)
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  var thread = pthread_t()
  let status = pthread_create(
    &thread, &attributes,
    { argument in
      guard let argument else { return nil }
      Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
      return nil
    }, box)
  pthread_attr_destroy(&attributes)
  if status != 0 {
    Unmanaged<Box>.fromOpaque(box).release()
    Log.error("could not start a thread", ["errno": "\(status)"])
    exit(70)
  }
}

/// Monotonic seconds, for durations.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false when
/// the other end is gone or another error stops it.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  var offset = 0
  while offset < bytes.count {
    guard let base = bytes.baseAddress else { return true }
    let written = write(fd, base + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR || errno == EAGAIN { continue }
      return false
    }
    offset += written
  }
  return true
}
