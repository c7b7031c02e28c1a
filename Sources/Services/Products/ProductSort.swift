/// The orders `products/list` can sort by.
public enum ProductSort: String, Sendable, CaseIterable {
  /// Newest first (by creation time, then id).
  case newest
  case priceAsc
  case priceDesc
  /// By Korean name, then id.
  case name
}
