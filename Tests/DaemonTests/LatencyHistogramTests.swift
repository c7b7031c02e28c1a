import XCTest

@testable import Daemon

final class LatencyHistogramTests: XCTestCase {
  func testBucketsTileTheValuesWithoutGapsAndAtMostAThirtySecondWide() {
    var previousUpper: UInt64?
    for index in 0..<1_800 {
      let upper = LatencyHistogram.upperBound(of: index)
      let lower = previousUpper.map { $0 + 1 } ?? 0
      XCTAssertEqual(LatencyHistogram.bucket(of: lower), index, "lowest value of bucket \(index)")
      XCTAssertEqual(LatencyHistogram.bucket(of: upper), index, "highest value of bucket \(index)")
      XCTAssertLessThanOrEqual(
        Double(upper - lower + 1), max(1, Double(lower) / 32), "bucket \(index) too wide")
      previousUpper = upper
    }
    XCTAssertEqual(LatencyHistogram.bucket(of: 31), 31)
    XCTAssertEqual(LatencyHistogram.bucket(of: 32), 32)
    XCTAssertEqual(LatencyHistogram.bucket(of: .max), 1_919)
    XCTAssertEqual(LatencyHistogram.upperBound(of: 1_919), .max)
  }

  func testPercentilesBoundTheExactOnesWithinABucket() {
    var random = SystemRandomNumberGenerator()
    for round in 0..<50 {
      var histogram = LatencyHistogram()
      let values = (0..<(1 + round * 40)).map { _ in
        UInt64.random(in: 0...(1 << UInt64.random(in: 3...40, using: &random)), using: &random)
      }
      for value in values { histogram.record(nanoseconds: value) }
      let sorted = values.sorted()
      XCTAssertEqual(histogram.count, UInt64(values.count))
      XCTAssertEqual(histogram.max, sorted.last)
      XCTAssertEqual(histogram.occupied.reduce(0) { $0 + $1.count }, UInt64(values.count))
      for percent in [1.0, 50, 90, 99, 100] {
        let rank = max(Int((percent / 100 * Double(values.count)).rounded(.up)), 1)
        let exact = sorted[rank - 1]
        let reported = histogram.percentile(percent)
        XCTAssertGreaterThanOrEqual(reported, exact, "p\(percent) of \(values.count)")
        XCTAssertLessThanOrEqual(
          Double(reported), max(Double(exact) * (1 + 1 / 32), Double(exact) + 1),
          "p\(percent) of \(values.count)")
      }
    }
    XCTAssertEqual(LatencyHistogram().percentile(50), 0, "nothing recorded")
  }
}
