import Protocol
import Synchronization

/// Collects the replies to one JSON-RPC batch and sends them as one array
/// once every element is settled. A batch of notifications gets no reply.
final class BatchReply: Sendable {
  private struct Slots {
    /// Each element's encoded reply; `nil` for notifications and for elements not yet settled.
    var replies: [[UInt8]?]
    /// Elements not yet answered or skipped.
    var unsettled: Int
    /// The tickets of the requests answered so far (`MessageSink.expectReply`).
    var tickets: [ReplyTicket] = []
  }

  /// The replies so far.
  private let slots: Mutex<Slots>
  private let sink: any MessageSink

  init(count: Int, sink: any MessageSink) {
    slots = Mutex(Slots(replies: Array(repeating: nil, count: count), unsettled: count))
    self.sink = sink
  }

  /// Answers the element at `index`, the request `ticket` stands for.
  func answer(_ index: Int, with body: [UInt8], ticket: ReplyTicket, wake: Bool) {
    settle(index, body, ticket: ticket, wake: wake)
  }

  /// Marks a notification element, which gets no reply.
  func skip(_ index: Int, wake: Bool) {
    settle(index, nil, ticket: nil, wake: wake)
  }

  private func settle(_ index: Int, _ body: [UInt8]?, ticket: ReplyTicket?, wake: Bool) {
    let complete: (replies: [[UInt8]], tickets: [ReplyTicket])? = slots.withLock { slots in
      slots.replies[index] = body
      if let ticket { slots.tickets.append(ticket) }
      slots.unsettled -= 1
      return slots.unsettled == 0 ? (slots.replies.compactMap { $0 }, slots.tickets) : nil
    }
    guard let (complete, tickets) = complete, !complete.isEmpty else { return }
    var array: [UInt8] = [UInt8(ascii: "[")]
    for (offset, reply) in complete.enumerated() {
      if offset > 0 { array.append(UInt8(ascii: ",")) }
      array.append(contentsOf: reply)
    }
    array.append(UInt8(ascii: "]"))
    sink.send(array, replyingTo: tickets, wake: wake)
  }
}
