/// Durations in log-linear buckets, as HdrHistogram keeps them: every power
/// of two split into 32 buckets of equal width, so a bucket is at most 1/32
/// (3.1 %) of its values wide whatever their size, and memory stays bounded
/// (at most 1,920 counters, grown as larger values arrive).
///
/// Counts only grow, like a Prometheus histogram's: a client that reads the
/// buckets twice gets the percentiles of the interval from their difference.
struct LatencyHistogram: Sendable {
  /// Buckets per power of two; below it every nanosecond has its own.
  static let subBucketBits = 5
  static let subBuckets = 1 << subBucketBits

  private(set) var counts: [UInt64] = []
  private(set) var count: UInt64 = 0
  private(set) var max: UInt64 = 0

  mutating func record(nanoseconds value: UInt64) {
    let index = Self.bucket(of: value)
    if index >= counts.count {
      counts.append(contentsOf: repeatElement(0, count: index + 1 - counts.count))
    }
    counts[index] += 1
    count += 1
    max = Swift.max(max, value)
  }

  /// The bucket holding `value`: the values below `subBuckets` one each,
  /// then `subBuckets` for each power of two, by the bits after the leading one.
  static func bucket(of value: UInt64) -> Int {
    guard value >= subBuckets else { return Int(value) }
    let shift = UInt64.bitWidth - 1 - value.leadingZeroBitCount - subBucketBits
    return subBuckets * (shift + 1) + Int(value >> shift) - subBuckets
  }

  /// The largest value bucket `index` holds.
  static func upperBound(of index: Int) -> UInt64 {
    guard index >= subBuckets else { return UInt64(index) }
    let (shift, mantissa) = (index - subBuckets).quotientAndRemainder(dividingBy: subBuckets)
    // The last bucket ends at 2^64 - 1: the shift wraps to 0 and the subtraction back.
    return (UInt64(subBuckets + mantissa + 1) &<< UInt64(shift)) &- 1
  }

  /// The nearest-rank `percent` percentile, as the upper bound of its bucket
  /// (never above the largest value recorded): a bound that was not beaten.
  /// 0 when nothing was recorded.
  func percentile(_ percent: Double) -> UInt64 {
    guard count > 0 else { return 0 }
    let rank = Swift.max(UInt64((percent / 100 * Double(count)).rounded(.up)), 1)
    var seen: UInt64 = 0
    for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
      seen += bucketCount
      if seen >= rank { return Swift.min(Self.upperBound(of: index), max) }
    }
    return max
  }

  /// The buckets that hold values: each one's upper bound and count, ascending.
  var occupied: [(upperBound: UInt64, count: UInt64)] {
    counts.enumerated().compactMap { index, count in
      count > 0 ? (Self.upperBound(of: index), count) : nil
    }
  }
}
