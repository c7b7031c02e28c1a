import Protocol

/// A row of an import file that was not imported.
public struct PlaceImportRejection: Sendable, Hashable {
  /// The 1-based line of the file where the row (CSV record, GeoJSON feature) starts.
  public let line: Int
  /// Why, as a sentence fragment: `x must be a longitude between -180 and 180`.
  public let reason: String

  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }

  public var json: JSON { ["line": JSON(line), "reason": JSON(reason)] }
}
