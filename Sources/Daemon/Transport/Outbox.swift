import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// The one writer of the protocol stream: senders frame messages into a
/// queue and a dedicated thread writes it out in large writes.
///
/// Memory stays bounded when the client stops reading: the stdin reader
/// calls `waitForRoom()` before each read, so once `maxQueuedBytes` are
/// waiting the daemon stops reading requests, which pushes back on the
/// client. Handlers already running may still add their replies, at most
/// `maxInFlight` of them.
///
/// `@unchecked Sendable`: every mutable property is read and written only
/// while holding `lock`.
final class Outbox: MessageSink, @unchecked Sendable {
  /// Guards the properties below and wakes the writer and the reader.
  private let lock = ConditionLock()
  /// Framed bytes waiting to be written.
  private var pending: [UInt8] = []
  /// The framing replies use: fixed by a flag, or set when the reader detects the client's.
  private var framing: Framing
  /// True while the writer thread sleeps for want of bytes.
  private var writerIdle = false
  /// True while `pending` is being written (the writer holds those bytes outside the lock).
  private var writing = false
  /// Set once stdout is gone (the client closed its end); later messages are dropped.
  private var broken = false
  /// Set by `close()`: the writer exits once `pending` is empty.
  private var closing = false

  /// The protocol's file descriptor (the original stdout).
  private let fd: Int32
  /// Queued bytes beyond which the reader stops reading.
  let maxQueuedBytes: Int
  private let tracer: Tracer?
  /// Called once, on the writer thread, when the client stopped reading.
  private let onBrokenPipe: @Sendable () -> Void

  init(
    fd: Int32, framing: Framing, maxQueuedBytes: Int, tracer: Tracer?,
    onBrokenPipe: @escaping @Sendable () -> Void
  ) {
    self.fd = fd
    self.framing = framing
    self.maxQueuedBytes = maxQueuedBytes
    self.tracer = tracer
    self.onBrokenPipe = onBrokenPipe
  }

  func setFraming(_ framing: Framing) {
    lock.withLock { self.framing = framing }
  }

  func send(_ body: [UInt8], wake: Bool) {
    if let tracer { body.withUnsafeBufferPointer { tracer.record(.outgoing, $0) } }
    lock.withLock {
      guard !broken else { return }
      framing.frame(body, into: &pending)
      if wake && writerIdle { lock.broadcast() }
    }
  }

  func flush() {
    lock.withLock {
      if writerIdle && !pending.isEmpty { lock.broadcast() }
    }
  }

  /// Blocks the calling thread (the stdin reader) while too much output is waiting.
  func waitForRoom() {
    lock.withLock {
      while pending.count >= maxQueuedBytes && !broken {
        if writerIdle { lock.broadcast() }
        lock.wait()
      }
    }
  }

  /// Bytes waiting to be written, for `daemon/status`.
  var queuedBytes: Int { lock.withLock { pending.count } }

  /// Writes until closed; runs on the writer thread.
  func runWriter() {
    var chunk: [UInt8] = []
    while true {
      let done: Bool = lock.withLock {
        writing = false
        while pending.isEmpty && !closing {
          writerIdle = true
          lock.broadcast()  // room for the reader, and `drain` waiters
          lock.wait()
        }
        writerIdle = false
        if pending.isEmpty { return true }
        swap(&chunk, &pending)
        writing = true
        lock.broadcast()
        return false
      }
      if done { break }
      let ok = chunk.withUnsafeBytes { writeAll(fd, $0) }
      chunk.removeAll(keepingCapacity: chunk.capacity <= 1 << 20)
      if !ok {
        lock.withLock {
          broken = true
          pending = []
          writing = false
          lock.broadcast()
        }
        onBrokenPipe()
        return
      }
    }
    lock.withLock {
      writing = false
      lock.broadcast()
    }
  }

  /// Waits up to `timeout` seconds until everything queued so far is written.
  @discardableResult
  func drain(timeout: Double) -> Bool {
    let limit = deadline(after: timeout)
    return lock.withLock {
      while (!pending.isEmpty || writing) && !broken {
        if writerIdle { lock.broadcast() }
        guard lock.wait(until: limit) else { return false }
      }
      return true
    }
  }

  /// Lets the writer finish what is queued and exit.
  func close() {
    lock.withLock {
      closing = true
      lock.broadcast()
    }
  }
}
