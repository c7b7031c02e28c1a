import XCTest

@testable import Services

/// The Kakao Local backend against a local stand-in server.
final class PlaceRemoteBackendTests: XCTestCase {
  static let path = "/v2/local/search/category.json"

  static let answer = """
    {"meta":{"same_name":null,"pageable_count":45,"total_count":1234,"is_end":false},
     "documents":[
      {"place_name":"스타벅스 강남R점","distance":"52","place_url":"http://place.map.kakao.com/1",
       "category_name":"음식점 > 카페 > 커피전문점 > 스타벅스","address_name":"서울 강남구 역삼동 825",
       "road_address_name":"서울 강남구 강남대로 390","id":"26338954","phone":"1522-3232",
       "category_group_code":"CE7","category_group_name":"카페","x":"127.028","y":"37.4985"},
      {"place_name":"No distance","distance":"","place_url":"","category_name":"",
       "address_name":"","road_address_name":"","id":"2","phone":"","category_group_code":"",
       "category_group_name":"","x":"127.03","y":"37.5"}
     ]}
    """

  private func backend(_ server: LocalHTTPServer, key: String = "secret-key") -> RemotePlaceBackend
  {
    RemotePlaceBackend(baseURL: server.baseURL + "/", apiKey: key, timeout: .seconds(5))
  }

  func testASearchMapsParamsAndConvertsStrings() async throws {
    let server = try LocalHTTPServer([Self.path: [.json(Self.answer)]])
    defer { server.stop() }
    let remote = backend(server)
    let result = try await remote.search(
      PlaceSearch(
        category: .cafe, x: 127.0276, y: 37.4979, radius: 500, page: 2, size: 10, sort: .distance))
    XCTAssertEqual(result.meta, PlaceSearchMeta(totalCount: 1234, pageableCount: 45, isEnd: false))
    XCTAssertEqual(
      result.items.first,
      Place(
        id: "26338954", placeName: "스타벅스 강남R점", category: .cafe,
        categoryName: "음식점 > 카페 > 커피전문점 > 스타벅스", phone: "1522-3232",
        addressName: "서울 강남구 역삼동 825", roadAddressName: "서울 강남구 강남대로 390", x: 127.028,
        y: 37.4985, distance: 52, placeUrl: "http://place.map.kakao.com/1"))
    XCTAssertEqual(result.items.last?.distance, nil)
    XCTAssertEqual(result.items.last?.category, .cafe, "the searched category when none is given")
    let request = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(request.path, Self.path)
    XCTAssertEqual(
      request.query,
      [
        "category_group_code": "CE7", "x": "127.0276", "y": "37.4979", "radius": "500", "page": "2",
        "size": "10", "sort": "distance",
      ])
    XCTAssertEqual(request.headers["authorization"], "KakaoAK secret-key")

    // A place a search returned can be fetched by id, without its distance.
    let place = try await remote.get(id: "26338954")
    XCTAssertEqual(place.placeName, "스타벅스 강남R점")
    XCTAssertNil(place.distance)
    let unknown = await thrownError { try await remote.get(id: "999") }
    XCTAssertEqual(unknown as? NotFound, NotFound(resource: "place", id: "999"))
  }

  func testARectIsSentAsKakaoText() async throws {
    let server = try LocalHTTPServer([
      Self.path: [
        .json(#"{"meta":{"total_count":0,"pageable_count":0,"is_end":true},"documents":[]}"#)
      ]
    ])
    defer { server.stop() }
    let result = try await backend(server, key: "").search(
      PlaceSearch(
        category: .bank, rect: PlaceRect(minX: 127, minY: 37.00001, maxX: 127.5, maxY: 37.6)))
    XCTAssertEqual(
      result,
      PlaceSearchResult(
        items: [], meta: PlaceSearchMeta(totalCount: 0, pageableCount: 0, isEnd: true)))
    let request = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(request.query["rect"], "127.0,37.00001,127.5,37.6")
    XCTAssertNil(request.query["x"])
    XCTAssertEqual(request.query["sort"], "accuracy")
    XCTAssertNil(request.headers["authorization"], "no key, no header")
  }

  func testAuthAndQuotaErrorsCarryTheUpstreamMessage() async throws {
    let server = try LocalHTTPServer([
      Self.path: [
        .json(#"{"errorType":"AccessDeniedError","message":"cannot find appkey"}"#, status: 401),
        .json(
          #"{"errorType":"RequestThrottled","message":"API limit has been exceeded."}"#, status: 429
        ),
        .json("<html>bad gateway</html>", status: 502),
        .json(#"{"documents":[]}"#),
        .json("not json"),
        .json(
          #"{"meta":{"total_count":1,"is_end":true},"documents":[{"id":"1","x":"east","y":"1"}]}"#),
      ]
    ])
    defer { server.stop() }
    let search = try PlaceSearch(category: .cafe, x: 127, y: 37.5)
    var failures: [UpstreamFailure?] = []
    for _ in 0..<6 {
      failures.append(
        await thrownError { try await self.backend(server).search(search) } as? UpstreamFailure)
    }
    XCTAssertEqual(
      failures,
      [
        .refused(
          service: "places", status: 401, message: "AccessDeniedError: cannot find appkey"),
        .refused(
          service: "places", status: 429, message: "RequestThrottled: API limit has been exceeded."),
        .badResponse(service: "places", status: 502, message: nil),
        .badResponse(service: "places", status: 200, message: "malformed response: no meta object"),
        failures[4],
        .badResponse(
          service: "places", status: 200,
          message: "malformed response: place 1 has no numeric x and y"),
      ])
    guard case .badResponse(_, 200, let message?)? = failures[4] else {
      return XCTFail("\(String(describing: failures[4]))")
    }
    XCTAssertTrue(message.hasPrefix("malformed response: the body is not JSON"), message)
  }

  func testAnUnreachableServerIsUnavailable() async throws {
    let port = try LocalHTTPServer.unusedPort()
    let remote = RemotePlaceBackend(
      baseURL: "http://127.0.0.1:\(port)", apiKey: "k", timeout: .seconds(2))
    let failure = await thrownError {
      try await remote.search(PlaceSearch(category: .cafe, x: 0, y: 0))
    }
    guard case .unavailable(let service, _)? = failure as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: failure))")
    }
    XCTAssertEqual(service, "places")
    let slow = try LocalHTTPServer([Self.path: [.json("{}", delay: .seconds(3))]])
    defer { slow.stop() }
    let timedOut = await thrownError {
      try await RemotePlaceBackend(baseURL: slow.baseURL, apiKey: "k", timeout: .milliseconds(300))
        .search(PlaceSearch(category: .cafe, x: 0, y: 0))
    }
    guard case .unavailable? = timedOut as? UpstreamFailure else {
      return XCTFail("expected unavailable, got \(String(describing: timedOut))")
    }
  }

  func testImportsNeedTheEmbeddedStore() async throws {
    let remote = RemotePlaceBackend(baseURL: "http://127.0.0.1:1", apiKey: "")
    let failure = await thrownError { try await remote.importPlaces(path: "/tmp/x.csv") { _ in } }
    XCTAssertEqual((failure as? InvalidArgument)?.field, "path")
  }
}
