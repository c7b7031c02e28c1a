/// Where the daemon's outgoing messages go: stdout through the `Outbox`, or
/// memory for the `call` command and tests.
protocol MessageSink: Sendable {
  /// Queues one message body (a JSON text, unframed). `wake: false` lets the
  /// reader queue a run of replies and wake the writer once, with `flush()`.
  func send(_ body: [UInt8], wake: Bool)
  /// Wakes the writer for what was queued with `wake: false`.
  func flush()
  /// Queues a run of message bodies together, in order, and wakes the writer
  /// once: a burst (a change reaching many feeds) costs one write, not one each.
  func send(all run: MessageRun)
  /// Bytes waiting to be written, for `daemon/status`.
  var queuedBytes: Int { get }
}

extension MessageSink {
  func send(_ body: [UInt8]) { send(body, wake: true) }

  var queuedBytes: Int { 0 }

  func send(all run: MessageRun) {
    for body in run.bodies { send(Array(body), wake: true) }
  }
}
