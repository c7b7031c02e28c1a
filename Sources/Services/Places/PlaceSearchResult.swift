import Protocol

/// One page of a search.
public struct PlaceSearchResult: Sendable, Hashable {
  public var items: [Place]
  public var meta: PlaceSearchMeta

  public init(items: [Place], meta: PlaceSearchMeta) {
    self.items = items
    self.meta = meta
  }

  /// `{items, meta: {totalCount, pageableCount, isEnd}}`.
  public var json: JSON {
    ["items": .array(items.map(\.json)), "meta": meta.json]
  }
}
