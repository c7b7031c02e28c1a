import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// The one writer of the protocol stream: senders frame messages into a
/// queue and a dedicated thread writes it out in large writes.
///
/// Memory stays bounded when the client stops reading: the message reader
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
  /// True while the writer thread writes bytes it took out of `pending`.
  private var writerBusy = false
  /// True while a sender writes a small run of messages itself (see `directWriteLimit`).
  private var directWriting = false
  /// The bytes a direct write is writing: touched only by the one thread
  /// that set `directWriting`, until it clears it.
  private var directChunk: [UInt8] = []
  /// Threads waiting in `drain`; wake-ups after the reader's own writes are
  /// skipped when nobody waits, which saves the writer thread a futex round trip.
  private var drainWaiters = 0
  /// Set once stdout is gone (the client closed its end); later messages are dropped.
  private var broken = false
  /// Set by `close()`: the writer exits once `pending` is empty.
  private var closing = false
  /// With a `table`: the stream offset of `pending`'s first byte, and where
  /// each frame in `pending` ends; then the same for `directChunk` (which,
  /// like it, only the thread that set `directWriting` touches until it clears it).
  private var pendingStart: UInt64 = 0
  private var pendingFrameEnds: [UInt64] = []
  private var directStart: UInt64 = 0
  private var directFrameEnds: [UInt64] = []

  /// The protocol's file descriptor (the original stdout).
  private let fd: Int32
  /// Queued bytes beyond which the reader stops reading.
  let maxQueuedBytes: Int
  private let tracer: Tracer?
  /// Called once, on the writer thread, when the client stopped reading.
  private let onBrokenPipe: @Sendable () -> Void
  /// A forwarded session's: which requests wait for a reply, and how much
  /// of the stream was written (see `writeFrames`).
  private let table: WaitingRequestTable?
  /// A forwarded session's end, which wakes a write waiting for room.
  private let end: SessionEnd?

  init(
    fd: Int32, framing: Framing, maxQueuedBytes: Int, tracer: Tracer?,
    table: WaitingRequestTable? = nil, end: SessionEnd? = nil,
    onBrokenPipe: @escaping @Sendable () -> Void
  ) {
    self.fd = fd
    self.framing = framing
    self.maxQueuedBytes = maxQueuedBytes
    self.tracer = tracer
    self.table = table
    self.end = end
    self.onBrokenPipe = onBrokenPipe
  }

  func setFraming(_ framing: Framing) {
    lock.withLock { self.framing = framing }
    table?.setFraming(framing)
  }

  func send(_ body: [UInt8], wake: Bool) {
    send(CollectionOfOne(body), replyingTo: EmptyCollection<ReplyTicket>(), wake: wake)
  }

  func send(all run: MessageRun) {
    send(run.bodies, replyingTo: EmptyCollection<ReplyTicket>(), wake: true)
  }

  func expectReply(to id: RequestID) -> ReplyTicket {
    table?.expect(id) ?? .untracked
  }

  func noteLocale(_ locale: MessageLocale) {
    table?.setLocale(locale)
  }

  func send(_ body: [UInt8], replyingTo ticket: ReplyTicket, wake: Bool) {
    send(CollectionOfOne(body), replyingTo: CollectionOfOne(ticket), wake: wake)
  }

  func send(_ body: [UInt8], replyingTo tickets: [ReplyTicket], wake: Bool) {
    send(CollectionOfOne(body), replyingTo: tickets, wake: wake)
  }

  /// Queues `bodies`; the last one is the reply of each of `tickets`.
  private func send<Body: Collection<UInt8>>(
    _ bodies: some Collection<Body>, replyingTo tickets: some Collection<ReplyTicket>, wake: Bool
  ) {
    if let tracer {
      for body in bodies { Array(body).withUnsafeBufferPointer { tracer.record(.outgoing, $0) } }
    }
    let direct: Bool = lock.withLock {
      guard !broken else { return false }
      for body in bodies {
        framing.frame(body, into: &pending)
        if table != nil { pendingFrameEnds.append(pendingStart + UInt64(pending.count)) }
      }
      if let table, let end = pendingFrameEnds.last {
        for ticket in tickets { table.replyQueued(ticket, endingAt: end) }
      }
      return wake && takeForDirectWrite()
    }
    // Not the reader: a thread of Swift's pool (a handler's reply or
    // notification) must not wait for a client that stopped reading.
    if direct { writeDirectly(unlessFull: true) }
  }

  /// Runs up to this size are written by the thread that queued them (the
  /// reader after a run of inline replies, or the thread that finished a
  /// handler) when the writer thread is idle: a lone request's reply then
  /// goes out without a hand-off between threads, which is most of a round
  /// trip's latency. Larger runs go to the writer thread, so reading,
  /// handling and writing overlap under load.
  static let directWriteLimit = 16 << 10

  /// Sends what the reader queued with `wake: false`. Called by the reader thread only.
  func flush() {
    let direct: Bool = lock.withLock {
      guard !broken else { return false }
      return takeForDirectWrite()
    }
    // The reader may wait for the client: that is the back-pressure.
    if direct { writeDirectly(unlessFull: false) }
  }

  /// Under `lock`: takes `pending` into `directChunk` for the caller to write
  /// when nobody else writes and it is small; else wakes the writer thread
  /// for it. Order holds because one thread writes at a time, the oldest bytes first.
  private func takeForDirectWrite() -> Bool {
    guard !pending.isEmpty else { return false }
    guard writerIdle, !writerBusy, !directWriting, pending.count <= Self.directWriteLimit else {
      if writerIdle { lock.broadcast() }
      return false
    }
    swap(&directChunk, &pending)
    if table != nil {
      swap(&directFrameEnds, &pendingFrameEnds)
      directStart = pendingStart
      pendingStart += UInt64(directChunk.count)
    }
    directWriting = true
    return true
  }

  /// Writes `directChunk` on the calling thread, then lets the writer thread
  /// have what was queued meanwhile. With `unlessFull`, a stdout that cannot
  /// take more now (a client that stopped reading) gets the bytes handed
  /// back to the writer thread instead, so the caller never blocks there.
  private func writeDirectly(unlessFull: Bool) {
    if unlessFull && !isWritable(fd) {
      lock.withLock {
        directChunk.append(contentsOf: pending)
        swap(&directChunk, &pending)
        directChunk.removeAll(keepingCapacity: true)
        if table != nil {
          directFrameEnds.append(contentsOf: pendingFrameEnds)
          swap(&directFrameEnds, &pendingFrameEnds)
          directFrameEnds.removeAll(keepingCapacity: true)
          pendingStart = directStart
        }
        directWriting = false
        lock.broadcast()
      }
      return
    }
    let ok = write(directChunk, start: directStart, frameEnds: directFrameEnds)
    directChunk.removeAll(keepingCapacity: directChunk.capacity <= Self.directWriteLimit * 2)
    directFrameEnds.removeAll(keepingCapacity: true)
    lock.withLock {
      directWriting = false
      if !ok {
        broken = true
        pending = []
        pendingFrameEnds = []
      }
      if !ok || !pending.isEmpty || closing || drainWaiters > 0 { lock.broadcast() }
    }
    if !ok { onBrokenPipe() }
  }

  /// Blocks the calling thread (the message reader) while too much output is waiting.
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
    var chunkStart: UInt64 = 0
    var chunkFrameEnds: [UInt64] = []
    while true {
      let done: Bool = lock.withLock {
        writerBusy = false
        // Bytes queued during a direct write go out after it, in order.
        while (pending.isEmpty && !closing) || directWriting {
          writerIdle = true
          lock.broadcast()  // room for the reader, and `drain` waiters
          lock.wait()
        }
        writerIdle = false
        if pending.isEmpty { return true }
        swap(&chunk, &pending)
        if table != nil {
          swap(&chunkFrameEnds, &pendingFrameEnds)
          chunkStart = pendingStart
          pendingStart += UInt64(chunk.count)
        }
        writerBusy = true
        lock.broadcast()
        return false
      }
      if done { break }
      let ok = write(chunk, start: chunkStart, frameEnds: chunkFrameEnds)
      chunk.removeAll(keepingCapacity: chunk.capacity <= 1 << 20)
      chunkFrameEnds.removeAll(keepingCapacity: true)
      if !ok {
        lock.withLock {
          broken = true
          pending = []
          writerBusy = false
          lock.broadcast()
        }
        onBrokenPipe()
        return
      }
    }
    lock.withLock {
      writerBusy = false
      lock.broadcast()
    }
  }

  /// Writes a run of whole frames that starts at stream offset `start`.
  private func write(_ bytes: [UInt8], start: UInt64, frameEnds: [UInt64]) -> Bool {
    guard let table, let end else { return bytes.withUnsafeBytes { writeAll(fd, $0) } }
    return bytes.withUnsafeBytes {
      writeFrames($0, start: start, frameEnds: frameEnds, table: table, end: end)
    }
  }

  /// The longest write a pipe takes whole or not at all (PIPE_BUF, a page on Linux).
  static let atomicWriteBytes = 4096

  /// A forwarded session's writes: in pieces a pipe takes whole or not at
  /// all, each made of whole frames where the frames are small enough,
  /// after poll(2) says there is room (or the session ended, which makes
  /// the write fail). After each piece the table learns how far the stream
  /// got and whether it stands inside a frame, so that if the daemon dies
  /// its forwarder knows which replies the client has, and can finish a
  /// frame cut short before it adds its own. A daemon killed while it waits
  /// for room wrote nothing of the piece; only a death in the copy itself,
  /// after the write and before the table's update, leaves a piece written
  /// that the table does not count.
  private func writeFrames(
    _ bytes: UnsafeRawBufferPointer, start: UInt64, frameEnds: [UInt64],
    table: WaitingRequestTable, end: SessionEnd
  ) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    var frame = 0
    while offset < bytes.count {
      let position = start + UInt64(offset)
      while frame < frameEnds.count && frameEnds[frame] <= position { frame += 1 }
      // Whole frames up to the limit; else a piece of the one large frame.
      var pieceEnd = frame
      while pieceEnd < frameEnds.count
        && frameEnds[pieceEnd] - position <= UInt64(Self.atomicWriteBytes)
      {
        pieceEnd += 1
      }
      let length =
        pieceEnd > frame
        ? Int(frameEnds[pieceEnd - 1] - position)
        : min(Self.atomicWriteBytes, bytes.count - offset)
      guard end.wait(for: Int16(POLLOUT), on: fd) else { return false }
      let written = Glibc.write(fd, base + offset, length)
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      offset += written
      let reached = start + UInt64(offset)
      let frameEnd = frameEnds[frame...].first { $0 >= reached } ?? reached
      table.written(upTo: reached, frameEnd: frameEnd)
    }
    return true
  }

  /// Waits up to `timeout` seconds until everything queued so far is written.
  @discardableResult
  func drain(timeout: Double) -> Bool {
    let limit = deadline(after: timeout)
    return lock.withLock {
      drainWaiters += 1
      defer { drainWaiters -= 1 }
      while (!pending.isEmpty || writerBusy || directWriting) && !broken {
        if writerIdle { lock.broadcast() }
        guard lock.wait(until: limit) else { return false }
      }
      return true
    }
  }

  /// Stops writing for good (later messages are dropped) and waits until no
  /// thread writes to the descriptor, so that the caller may close it: a
  /// shared daemon's session ends while other sessions may still notify it.
  /// Shut the socket down first, so that a write blocked on a client that
  /// stopped reading fails instead of waiting.
  func detach() {
    lock.withLock {
      broken = true
      closing = true
      pending = []
      drainWaiters += 1
      defer { drainWaiters -= 1 }
      lock.broadcast()
      while directWriting || writerBusy { lock.wait() }
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
