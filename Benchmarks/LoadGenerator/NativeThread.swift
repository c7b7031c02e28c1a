import Glibc

/// A closure running on its own POSIX thread (there is no Foundation `Thread` here); `join`
/// waits for it and returns what it returned.
final class NativeThread<Value: Sendable> {
  private var handle = pthread_t()
  private let outcome = Outcome<Value>()
  private var joined = false

  init(_ body: @escaping @Sendable () -> Value) throws {
    let outcome = self.outcome
    let start = Unmanaged.passRetained(Start { outcome.value = body() })
    let status = pthread_create(
      &handle, nil,
      { context in
        if let context { Unmanaged<Start>.fromOpaque(context).takeRetainedValue().run() }
        return nil
      }, start.toOpaque())
    guard status == 0 else {
      start.release()
      throw BenchError.system(call: "pthread_create", errno: status)
    }
  }

  /// Waits for the thread to end (at once if it was joined before) and returns its value.
  func join() -> Value? {
    if !joined {
      joined = true
      pthread_join(handle, nil)
    }
    return outcome.value
  }

  deinit {
    if !joined { pthread_detach(handle) }
  }
}

/// What the thread returned.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
  // Safe without a lock: the thread writes `value` once, before it ends, and it is read only
  // after pthread_join, which orders that write before the read.
  var value: Value?
}

/// The closure handed through pthread_create's context pointer.
private final class Start {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
