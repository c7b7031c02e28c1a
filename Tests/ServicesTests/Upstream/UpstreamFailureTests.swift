import XCTest

@testable import Services

final class UpstreamFailureTests: XCTestCase {
  func testHTTPFailuresBecomeServiceErrors() {
    XCTAssertEqual(
      HTTPFailure.unavailable("timed out").serviceError(service: "photos") as? UpstreamFailure,
      .unavailable(service: "photos", reason: "timed out"))
    XCTAssertEqual(
      HTTPFailure.clientUnavailable("no libcurl").serviceError(service: "photos")
        as? UpstreamFailure,
      .unavailable(service: "photos", reason: "no HTTP client: no libcurl"))
    XCTAssertEqual(
      HTTPFailure.tooLarge(limit: 10).serviceError(service: "places") as? UpstreamFailure,
      .badResponse(service: "places", status: nil, message: "response larger than 10 bytes"))
    XCTAssertEqual(
      HTTPFailure.failed("bad URL").serviceError(service: "places") as? UpstreamFailure,
      .badResponse(service: "places", status: nil, message: "bad URL"))
    XCTAssertTrue(HTTPFailure.cancelled.serviceError(service: "quotes") is CancellationError)
  }

  func testDescriptionNamesServiceStatusAndMessage() {
    XCTAssertEqual(
      "\(UpstreamFailure.badResponse(service: "quotes", status: 500, message: "boom"))",
      "the quotes upstream answered badly (status 500): boom")
  }
}
