/// What happened to a live source's records.
public enum FeedSourceEvent: Sendable {
  /// These records changed, in this order.
  case changed(topic: String, [FeedRecordChange])
  /// Changes may have been missed: reload what is loaded and send the difference.
  case resync(topic: String)
}
