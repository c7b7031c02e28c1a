import Protocol

/// Kakao Local's `meta`: every match, how many of them can be paged, and
/// whether this page is the last one.
public struct PlaceSearchMeta: Sendable, Hashable {
  public var totalCount: Int
  /// `min(totalCount, 45)`.
  public var pageableCount: Int
  public var isEnd: Bool

  public init(totalCount: Int, pageableCount: Int, isEnd: Bool) {
    self.totalCount = totalCount
    self.pageableCount = pageableCount
    self.isEnd = isEnd
  }

  /// `json`'s text, written without making the tree: a search's reply
  /// ends with it.
  public func write(into output: inout JSONBuffer) {
    JSONWriter.writeLiteral(#"{"totalCount":"#, into: &output)
    JSONWriter.writeInteger(totalCount, into: &output)
    JSONWriter.writeLiteral(#","pageableCount":"#, into: &output)
    JSONWriter.writeInteger(pageableCount, into: &output)
    if isEnd {
      JSONWriter.writeLiteral(#","isEnd":true}"#, into: &output)
    } else {
      JSONWriter.writeLiteral(#","isEnd":false}"#, into: &output)
    }
  }

  public var json: JSON {
    [
      "totalCount": JSON(totalCount), "pageableCount": JSON(pageableCount),
      "isEnd": JSON(isEnd),
    ]
  }
}
