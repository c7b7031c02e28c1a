import Protocol

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
  /// A request with this id was read: its reply is due (a forwarded
  /// session's `WaitingRequestTable` keeps it until the reply is written).
  /// The ticket goes back to the sink with the reply.
  func expectReply(to id: RequestID) -> ReplyTicket
  /// The session's error messages are in `locale` from now on (`initialize` chose it).
  func noteLocale(_ locale: MessageLocale)
  /// Queues the reply `ticket` stands for.
  func send(_ body: [UInt8], replyingTo ticket: ReplyTicket, wake: Bool)
  /// Queues a batch's reply, which answers the requests of each of `tickets`.
  func send(_ body: [UInt8], replyingTo tickets: [ReplyTicket], wake: Bool)
}

extension MessageSink {
  func send(_ body: [UInt8]) { send(body, wake: true) }

  var queuedBytes: Int { 0 }

  func send(all run: MessageRun) {
    for body in run.bodies { send(Array(body), wake: true) }
  }

  func expectReply(to id: RequestID) -> ReplyTicket { .untracked }

  func noteLocale(_ locale: MessageLocale) {}

  func send(_ body: [UInt8], replyingTo ticket: ReplyTicket, wake: Bool) {
    send(body, wake: wake)
  }

  func send(_ body: [UInt8], replyingTo tickets: [ReplyTicket], wake: Bool) {
    send(body, wake: wake)
  }
}
