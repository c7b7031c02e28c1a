import Protocol
import XCTest

@testable import Services

/// The search params' rules, the paging window and the JSON shapes.
final class PlaceSearchTests: XCTestCase {
  private func field(_ body: () throws -> PlaceSearch) -> String? {
    do {
      _ = try body()
      return nil
    } catch let error as InvalidArgument {
      return error.field + ": " + error.reason.english
    } catch {
      return "\(error)"
    }
  }

  func testRulesNameTheirField() {
    XCTAssertEqual(field { try PlaceSearch(category: .cafe) }, "x: is required without rect")
    XCTAssertEqual(field { try PlaceSearch(category: .cafe, x: 1) }, "y: is required with x")
    XCTAssertEqual(field { try PlaceSearch(category: .cafe, y: 1) }, "x: is required with y")
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, x: 1, y: 1, radius: 20_001) },
      "radius: must be between 0 and 20000")
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, x: 181, y: 1) },
      "x: must be a longitude between -180 and 180")
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, x: 1, y: .nan) },
      "y: must be a latitude between -90 and 90")
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, x: 1, y: 1, page: 46) },
      "page: must be between 1 and 45")
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, x: 1, y: 1, size: 0) },
      "size: must be between 1 and 15")
    let rect = PlaceRect(minX: 1, minY: 2, maxX: 3, maxY: 4)
    XCTAssertEqual(
      field { try PlaceSearch(category: .cafe, rect: rect, sort: .distance) },
      "x: is required when sort is \"distance\"")
    XCTAssertEqual(
      field {
        try PlaceSearch(category: .cafe, rect: PlaceRect(minX: 1, minY: 4, maxX: 3, maxY: 2))
      }, "rect: has minY above maxY")
    XCTAssertNil(field { try PlaceSearch(category: .cafe, rect: rect) })
    XCTAssertNil(
      field {
        try PlaceSearch(
          category: .cafe, rect: PlaceRect(minX: 170, minY: -10, maxX: -170, maxY: 10))
      }, "a rect across the antimeridian")
  }

  func testDefaultsAndPaging() throws {
    let search = try PlaceSearch(category: .restaurant, x: 127, y: 37.5)
    XCTAssertEqual(search.area, .circle(center: PlaceCoordinate(x: 127, y: 37.5), radius: 20_000))
    XCTAssertEqual(search.sort, .accuracy)
    XCTAssertEqual(search.size, 15)
    XCTAssertEqual(search.window, 0..<15)
    let third = try PlaceSearch(category: .restaurant, x: 127, y: 37.5, page: 3)
    XCTAssertEqual(third.window, 30..<45)
    XCTAssertEqual(
      third.meta(totalCount: 100), PlaceSearchMeta(totalCount: 100, pageableCount: 45, isEnd: true))
    XCTAssertEqual(third.meta(totalCount: 50).isEnd, true)
    let second = try PlaceSearch(category: .restaurant, x: 127, y: 37.5, page: 2)
    XCTAssertEqual(second.meta(totalCount: 31).isEnd, false)
    XCTAssertEqual(second.meta(totalCount: 30).isEnd, true)
    // Written straight, the meta is the text of its tree.
    for meta in [second.meta(totalCount: 31), third.meta(totalCount: 1_234_567)] {
      var written = JSONBuffer(capacity: 0)
      meta.write(into: &written)
      XCTAssertEqual(written.bytes, meta.json.serialized())
    }
    let past = try PlaceSearch(category: .restaurant, x: 127, y: 37.5, page: 4)
    XCTAssertEqual(past.window, 45..<45)
    let small = try PlaceSearch(category: .restaurant, x: 127, y: 37.5, page: 45, size: 1)
    XCTAssertEqual(small.window, 44..<45)
  }

  func testJSONShapes() {
    let place = Place(
      id: "1", placeName: "GS25 역삼점", category: .convenienceStore,
      categoryName: "가정,생활 > 편의점 > GS25", phone: "02-555-1234",
      addressName: "서울 강남구 역삼동 123-4", roadAddressName: "서울 강남구 테헤란로 123", x: 127.0365,
      y: 37.5006, distance: 12)
    XCTAssertEqual(
      place.json.description,
      #"{"id":"1","placeName":"GS25 역삼점","categoryGroupCode":"CS2","categoryGroupName":"편의점","#
        + #""categoryName":"가정,생활 > 편의점 > GS25","phone":"02-555-1234","#
        + #""addressName":"서울 강남구 역삼동 123-4","roadAddressName":"서울 강남구 테헤란로 123","#
        + #""x":127.0365,"y":37.5006,"distance":12,"placeUrl":""}"#)
    var noDistance = place
    noDistance.distance = nil
    XCTAssertEqual(noDistance.json["distance"], .null)
    let result = PlaceSearchResult(
      items: [], meta: PlaceSearchMeta(totalCount: 3, pageableCount: 3, isEnd: true))
    XCTAssertEqual(
      result.json.description,
      #"{"items":[],"meta":{"totalCount":3,"pageableCount":3,"isEnd":true}}"#)
    XCTAssertEqual(
      PlaceImportResult(
        imported: 2, rejected: [PlaceImportRejection(line: 3, reason: "id is missing")],
        rejectedCount: 1
      ).json.description,
      #"{"imported":2,"rejected":[{"line":3,"reason":"id is missing"}],"rejectedCount":1}"#)
  }

  func testTheEighteenCategories() {
    XCTAssertEqual(
      PlaceCategory.allCases.map { "\($0.code) \($0.name)" },
      [
        "MT1 대형마트", "CS2 편의점", "PS3 어린이집·유치원", "SC4 학교", "AC5 학원", "PK6 주차장",
        "OL7 주유소·충전소", "SW8 지하철역", "BK9 은행", "CT1 문화시설", "AG2 중개업소", "PO3 공공기관",
        "AT4 관광명소", "AD5 숙박", "FD6 음식점", "CE7 카페", "HP8 병원", "PM9 약국",
      ])
    XCTAssertEqual(PlaceCategory(code: "FD6"), .restaurant)
    XCTAssertNil(PlaceCategory(code: "fd6"))
  }
}
