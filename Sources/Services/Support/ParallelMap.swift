import Glibc
import Synchronization

/// A blocking function applied to many inputs on a few threads at once, for
/// work that mostly waits for the disk (a file's header, a folder's entries):
/// a disk serves many requests in flight faster than one at a time.
///
/// The threads are POSIX threads of their own, joined before `map` returns,
/// never Swift's cooperative pool (one thread per core; see `DedicatedThread`).
enum ParallelMap {
  /// `transform` of each of `0..<count`, in that order, computed by up to
  /// `threads` threads taking the next index in turn. The calling thread is
  /// one of them, so the work is done even when no thread can be started.
  static func map<Element: Sendable>(
    _ count: Int, threads: Int, _ transform: @escaping @Sendable (Int) -> Element
  ) -> [Element] {
    let work = Work(count: count, transform)
    var started: [pthread_t] = []
    for _ in 1..<max(1, min(threads, count)) {
      // A C function cannot refer to `Element`: the thread gets a plain closure.
      let context = Unmanaged.passRetained(Runner(work.run)).toOpaque()
      var thread = pthread_t()
      let result = pthread_create(
        &thread, nil,
        { context in
          guard let context else { return nil }
          Unmanaged<Runner>.fromOpaque(context).takeRetainedValue().body()
          return nil
        }, context)
      if result == 0 {
        started.append(thread)
      } else {
        Unmanaged<Runner>.fromOpaque(context).release()
      }
    }
    work.run()
    for thread in started {
      pthread_join(thread, nil)
    }
    return work.results()
  }

  /// What a thread runs, boxed so that it fits through `pthread_create`'s `void *`.
  private final class Runner: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// The function, the next index to claim, and a slot per result.
  ///
  /// `@unchecked Sendable`, safely: `next` is atomic, so each slot of `slots`
  /// is claimed, then written, by exactly one thread; `results()` reads the
  /// slots only after `pthread_join` returned for every other thread (which
  /// orders their writes before it), and `deinit` frees them after that.
  private final class Work<Element: Sendable>: @unchecked Sendable {
    let count: Int
    let transform: @Sendable (Int) -> Element
    let next = Atomic<Int>(0)
    let slots: UnsafeMutableBufferPointer<Element>

    init(count: Int, _ transform: @escaping @Sendable (Int) -> Element) {
      self.count = count
      self.transform = transform
      slots = .allocate(capacity: count)
    }

    deinit {
      slots.deallocate()
    }

    func run() {
      while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < count else { return }
        (slots.baseAddress.map { $0 + index })?.initialize(to: transform(index))
      }
    }

    /// The results, moved out of the slots; call once, after every thread ended.
    func results() -> [Element] {
      guard let base = slots.baseAddress else { return [] }
      return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
        buffer.baseAddress?.moveInitialize(from: base, count: count)
        initialized = count
      }
    }
  }
}
