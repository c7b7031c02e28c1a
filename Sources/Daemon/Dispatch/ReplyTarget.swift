/// Where a request's reply goes, and the ticket its sink gave it when the
/// request was read (`MessageSink.expectReply`).
enum ReplyTarget: Sendable {
  case single(ReplyTicket)
  case batch(BatchReply, index: Int, ticket: ReplyTicket)

  /// The same target, for the reply the ticket stands for.
  func with(_ ticket: ReplyTicket) -> ReplyTarget {
    switch self {
    case .single: .single(ticket)
    case .batch(let batch, let index, _): .batch(batch, index: index, ticket: ticket)
    }
  }
}
