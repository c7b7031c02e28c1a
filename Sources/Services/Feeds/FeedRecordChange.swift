/// A record of a live source created, changed or removed.
public struct FeedRecordChange: Sendable {
  /// The record's id (the `id` of its item).
  public let id: String
  /// Grows with each change of the record, when the source counts them: a
  /// change older than one already applied is ignored. `Int.max` for a
  /// removal that is final (product ids are never reused).
  public let version: Int?
  /// The record as it is now; nil when it was removed.
  public let record: FeedRecord?

  public init(id: String, version: Int?, record: FeedRecord?) {
    self.id = id
    self.version = version
    self.record = record
  }
}
