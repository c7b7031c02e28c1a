/// Order statistics by the nearest-rank method: the p-th percentile is the smallest sample with
/// at least p% of the samples at or below it, so every figure is a time actually measured.
struct Percentiles {
  private let sorted: [UInt64]

  init(_ samples: [UInt64]) {
    sorted = samples.sorted()
  }

  /// The p-th percentile, 0 < p ≤ 100; 0 for no samples.
  func at(_ p: Double) -> UInt64 {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
  }

  var median: UInt64 { at(50) }
  var max: UInt64 { sorted.last ?? 0 }
}
