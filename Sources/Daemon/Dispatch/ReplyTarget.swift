/// Where a request's reply goes.
enum ReplyTarget: Sendable {
  case single
  case batch(BatchReply, index: Int)
}
