/// What a sink hands out for a reply it was told to expect
/// (`MessageSink.expectReply`), and is given back with the reply: a forwarded
/// session's entry in its `WaitingRequestTable`, found again without a lookup by id.
struct ReplyTicket: Sendable, Equatable {
  /// The table's slot; negative for none.
  let slot: Int32

  /// No entry: the sink keeps none, or the table had no room.
  static let untracked = ReplyTicket(slot: -1)
}
