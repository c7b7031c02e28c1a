import XCTest

@testable import Services

/// `ServedImageURLs`: a bounded record, the oldest out first.
final class ServedImageURLsTests: XCTestCase {
  func testKeepsTheNewestUpToItsCapacity() async throws {
    let served = ServedImageURLs(capacity: 3)
    served.record(["a", "b", "c", "b"])
    XCTAssertEqual(served.count, 3)
    served.record(["d", "e"])
    XCTAssertEqual(served.count, 3)
    XCTAssertEqual(
      ["a", "b", "c", "d", "e"].map(served.contains), [false, false, true, true, true])
    served.record(["http://x/d.png"])
    let recorded = try await served.handedOut(XCTUnwrap(ImageURL("http://x/d.png")))
    XCTAssertTrue(recorded)
  }
}
