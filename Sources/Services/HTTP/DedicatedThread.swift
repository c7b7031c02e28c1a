import Glibc

/// Runs blocking work on a new detached POSIX thread.
///
/// A libcurl transfer blocks its thread for as long as the upstream takes. Swift's
/// cooperative pool has one thread per core (two here), so blocking it would stall
/// every other task; Dispatch's concurrent queues are capped the same way. A thread
/// per transfer costs tens of microseconds, nothing next to a network round trip.
enum DedicatedThread {
  /// The closure, boxed so that its context fits through `pthread_create`'s `void *`.
  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` on a new thread; false (and `body` never runs) when the system
  /// refuses to create one.
  static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let result = pthread_create(
      &thread, &attributes,
      { context in
        guard let context else { return nil }
        Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, work)
    if result != 0 {
      Unmanaged<Work>.fromOpaque(work).release()
      return false
    }
    return true
  }
}
