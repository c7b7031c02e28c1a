import Glibc

/// A serial executor that runs its jobs, in order, on one dedicated POSIX
/// thread: the executor of an `SQLiteConnection` or a `PostgresConnection`.
///
/// Database calls block (an fsync per durable commit, busy waits, network
/// round trips), and Swift's
/// cooperative pool has one thread per core; a blocked pool thread would stall
/// every other task of the daemon. Dispatch's `DispatchSerialQueue` is not a
/// `SerialExecutor` on Linux, hence this one. A hop onto it and back costs a
/// few microseconds (a futex wake when the thread sleeps).
///
/// `@unchecked Sendable`: `jobs`, `isSleeping` and `isStopping` are read and
/// written only with `mutex` held; `thread` is written once in `init`, before
/// any job can be enqueued, and only read afterwards; the pthread objects are
/// allocated in `init` and freed in `deinit`, which runs after the thread ended
/// (the thread holds a reference until then).
final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
  /// Guards the fields below.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Signalled when a job arrives for the sleeping thread, or on `stop`.
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Jobs not yet run, oldest first.
  private var jobs: [UnownedJob] = []
  /// Whether the thread waits on `condition` (only then is a signal needed).
  private var isSleeping = false
  /// Set by `stop`: the thread ends once `jobs` is empty.
  private var isStopping = false
  /// The thread that runs the jobs.
  private var thread = pthread_t()

  /// Starts the thread; nil when the system refuses to create one.
  init?() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
    let retained = Unmanaged.passRetained(self)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let status = pthread_create(
      &thread, &attributes,
      { context in
        guard let context else { return nil }
        Unmanaged<ThreadExecutor>.fromOpaque(context).takeRetainedValue().runLoop()
        return nil
      }, retained.toOpaque())
    guard status == 0 else {
      retained.release()
      return nil
    }
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    let wake = isSleeping
    pthread_mutex_unlock(mutex)
    if wake {
      pthread_cond_signal(condition)
    }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Lets `assumeIsolated` and isolation checks work for code on the thread.
  func isIsolatingCurrentContext() -> Bool? {
    pthread_equal(pthread_self(), thread) != 0
  }

  /// Ends the thread once the jobs enqueued so far have run.
  func stop() {
    pthread_mutex_lock(mutex)
    isStopping = true
    let wake = isSleeping
    pthread_mutex_unlock(mutex)
    if wake {
      pthread_cond_signal(condition)
    }
  }

  /// The thread's body: takes all waiting jobs at once and runs them in order.
  private func runLoop() {
    var batch: [UnownedJob] = []
    let executor = asUnownedSerialExecutor()
    while true {
      pthread_mutex_lock(mutex)
      while jobs.isEmpty && !isStopping {
        isSleeping = true
        pthread_cond_wait(condition, mutex)
        isSleeping = false
      }
      if jobs.isEmpty {  // and stopping
        pthread_mutex_unlock(mutex)
        return
      }
      swap(&batch, &jobs)
      pthread_mutex_unlock(mutex)
      for job in batch {
        job.runSynchronously(on: executor)
      }
      batch.removeAll(keepingCapacity: true)
    }
  }
}
