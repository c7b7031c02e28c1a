import Services

/// The nearest matches of a search, kept as they stream in: ordered by whole
/// metres, then by point number (the daemon's order of ids), as the daemon
/// orders them; every match is counted.
struct PlacesNearestPage {
  let limit: Int
  /// `metres << 32 | number`, ascending, at most `limit`.
  private(set) var orders: [UInt64] = []
  private(set) var totalCount = 0

  init(limit: Int = PlacesQuery.pageSize) {
    self.limit = limit
    orders.reserveCapacity(limit + 1)
  }

  @inline(__always)
  mutating func offer(metres: Double, number: Int32) {
    totalCount += 1
    let order = UInt64(PlaceGeometry.wholeMetres(metres)) << 32 | UInt64(UInt32(number))
    if orders.count == limit, let worst = orders.last, order >= worst { return }
    var index = orders.count
    orders.append(order)
    while index > 0, orders[index - 1] > order {
      orders[index] = orders[index - 1]
      index -= 1
    }
    orders[index] = order
    if orders.count > limit { orders.removeLast() }
  }

  func answer(_ data: PlacesDataSet) -> PlacesAnswer {
    PlacesAnswer(
      totalCount: totalCount, ids: orders.map { data.ids[Int($0 & 0xFFFF_FFFF)] })
  }
}
