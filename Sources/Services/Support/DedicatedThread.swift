import Glibc

/// Runs blocking work on a new detached POSIX thread: a libcurl transfer, a
/// folder scan, the daemon's stdin reader and stdout writer.
///
/// Blocking work must stay off Swift's cooperative pool, which has one thread
/// per core: a blocked pool thread would stall every other task, and
/// Dispatch's concurrent queues are capped the same way. A thread costs tens of
/// microseconds, nothing next to the work it carries.
public enum DedicatedThread {
  /// The closure, boxed so that its context fits through `pthread_create`'s `void *`.
  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` on a new thread, with `stackSize` bytes of stack when
  /// given (else the system's default); false (and `body` never runs) when the
  /// system refuses to create one.
  public static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
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
