import Protocol

/// What an import did.
public struct PlaceImportResult: Sendable, Hashable {
  /// The most rejections listed; `rejectedCount` counts them all.
  public static let maxListedRejections = 1_000

  /// Rows added or replaced (a row replacing an earlier one of the file counts too).
  public var imported: Int
  /// The first `maxListedRejections` rejected rows, in file order.
  public var rejected: [PlaceImportRejection]
  /// Every rejected row.
  public var rejectedCount: Int

  public init(imported: Int = 0, rejected: [PlaceImportRejection] = [], rejectedCount: Int = 0) {
    self.imported = imported
    self.rejected = rejected
    self.rejectedCount = rejectedCount
  }

  mutating func reject(line: Int, _ reason: String) {
    rejectedCount += 1
    if rejected.count < Self.maxListedRejections {
      rejected.append(PlaceImportRejection(line: line, reason: reason))
    }
  }

  /// `{imported, rejected: [{line, reason}], rejectedCount}`.
  public var json: JSON {
    [
      "imported": JSON(imported), "rejected": .array(rejected.map(\.json)),
      "rejectedCount": JSON(rejectedCount),
    ]
  }
}
