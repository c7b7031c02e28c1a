import Glibc

/// Where an item sorts in a live source's list, exactly as the source's
/// database orders it: a primary value (an integer, or text compared byte
/// by byte as SQLite's BINARY and PostgreSQL's "C" collations do), then a
/// numeric tiebreak (the row id), both ascending or both descending.
public struct FeedSortKey: Sendable, Hashable, Comparable {
  public enum Primary: Sendable, Hashable {
    case integer(Int64)
    /// UTF-8 bytes, compared as `memcmp` compares them.
    case bytes([UInt8])
  }

  public let primary: Primary
  public let tiebreak: Int64
  /// True when larger values come first.
  public let descending: Bool

  public init(_ primary: Primary, tiebreak: Int64 = 0, descending: Bool = false) {
    self.primary = primary
    self.tiebreak = tiebreak
    self.descending = descending
  }

  public init(text: String, tiebreak: Int64 = 0, descending: Bool = false) {
    self.init(.bytes(Array(text.utf8)), tiebreak: tiebreak, descending: descending)
  }

  /// True when `a` comes before `b` in the list.
  public static func < (a: FeedSortKey, b: FeedSortKey) -> Bool {
    let order = a.ascendingOrder(b)
    return a.descending ? order > 0 : order < 0
  }

  /// Negative, zero or positive as `self` is below, equal to or above `other` in ascending order.
  private func ascendingOrder(_ other: FeedSortKey) -> Int {
    let primaryOrder: Int
    switch (primary, other.primary) {
    case (.integer(let a), .integer(let b)): primaryOrder = a < b ? -1 : a > b ? 1 : 0
    case (.bytes(let a), .bytes(let b)): primaryOrder = Self.compare(a, b)
    case (.integer, .bytes): primaryOrder = -1
    case (.bytes, .integer): primaryOrder = 1
    }
    if primaryOrder != 0 { return primaryOrder }
    return tiebreak < other.tiebreak ? -1 : tiebreak > other.tiebreak ? 1 : 0
  }

  private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
          let order = memcmp(left, right, common)
          if order != 0 { return Int(order) }
        }
        return a.count - b.count
      }
    }
  }
}
