/// The first `limit` matches of a search in its order, kept while the matches
/// stream in: an insertion-sorted buffer for a page's few dozen (the service
/// asks for 45 at most), a full sort at the end for larger limits (tests).
///
/// An order is a `UInt64` that is unique per point: the caller packs the sort
/// key above the point's number.
struct PlaceSelection {
  /// Above it, matches are collected and sorted once at the end.
  static let insertionLimit = 64

  let limit: Int
  /// Whether `orders` is kept sorted and trimmed to `limit` as matches arrive.
  private let isIncremental: Bool
  /// The orders kept, ascending when incremental.
  private(set) var orders: [UInt64] = []
  /// The index position of each kept order.
  private(set) var positions: [Int32] = []

  init(limit: Int) {
    self.limit = max(limit, 0)
    isIncremental = self.limit <= Self.insertionLimit
    if isIncremental {
      orders.reserveCapacity(self.limit + 1)
      positions.reserveCapacity(self.limit + 1)
    }
  }

  /// Whether no order at or above `worst` can be kept any more.
  var isFull: Bool { isIncremental && orders.count >= limit }

  /// The largest order kept once full: an order at or above it is refused.
  var worst: UInt64 { orders.last ?? 0 }

  /// Whether an order could still be kept.
  @inline(__always)
  func admits(_ order: UInt64) -> Bool {
    !isFull || order < worst
  }

  @inline(__always)
  mutating func offer(_ order: UInt64, position: Int32) {
    guard isIncremental else {
      orders.append(order)
      positions.append(position)
      return
    }
    guard admits(order), limit > 0 else { return }
    var index = orders.count
    orders.append(order)
    positions.append(position)
    while index > 0, orders[index - 1] > order {
      orders[index] = orders[index - 1]
      positions[index] = positions[index - 1]
      index -= 1
    }
    orders[index] = order
    positions[index] = position
    if orders.count > limit {
      orders.removeLast()
      positions.removeLast()
    }
  }

  /// The kept (order, position) pairs, ascending, at most `limit`.
  func sorted() -> [(order: UInt64, position: Int32)] {
    var pairs = zip(orders, positions).map { (order: $0, position: $1) }
    if !isIncremental {
      pairs.sort { $0.order < $1.order }
      if pairs.count > limit { pairs.removeLast(pairs.count - limit) }
    }
    return pairs
  }
}
