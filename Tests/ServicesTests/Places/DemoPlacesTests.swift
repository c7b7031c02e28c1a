import XCTest

@testable import Services

/// The demo places carry the address of the place where their point lies
/// (issue #19): the 구 and 법정동 of the embedded boundaries, Kakao's phones
/// and page links, and the same places on every run.
final class DemoPlacesTests: XCTestCase {
  static let map = DemoSeoulMap.shared
  static let places = DemoPlaces.places(count: DemoPlaces.defaultCount)

  /// The map's index of the 법정동 `dong` of `gu`.
  static let dongIndex: [String: Int] = Dictionary(
    uniqueKeysWithValues: map.dongs.enumerated().map { ("\($1.gu) \($1.name)", $0) })

  func testTheMapHoldsSeoulsLegalNeighbourhoods() {
    XCTAssertEqual(Self.map.dongs.count, 467)
    XCTAssertEqual(Set(Self.map.dongs.map(\.gu)), Set(DemoSeoul.districts.map(\.name)))
    XCTAssertEqual(Set(Self.map.dongs.map(\.code)).count, 467)
    // Seoul City Hall, and a café 31 m from it (issue #19 found it in 명륜3가).
    let cityHall = Self.map.dong(x: 126.9779692, y: 37.566535).map { Self.map.dongs[$0] }
    XCTAssertEqual(cityHall.map { "\($0.gu) \($0.name)" }, "중구 태평로1가")
    XCTAssertNil(Self.map.dong(x: 126.60, y: 37.50), "Incheon")
    XCTAssertNil(Self.map.dong(x: 127.20, y: 37.40), "Seongnam")
  }

  func testEveryDemoPlaceLiesInTheGuAndDongItsAddressNames() throws {
    XCTAssertEqual(Self.places.count, 50_000)
    for place in Self.places {
      let parts = place.addressName.split(separator: " ")
      XCTAssertEqual(parts.count, 4, place.addressName)
      XCTAssertEqual(parts.first, "서울", place.addressName)
      let named = try XCTUnwrap(
        Self.dongIndex["\(parts[1]) \(parts[2])"], "no 법정동 \(place.addressName)")
      XCTAssertTrue(
        Self.map.holds(named, x: place.x, y: place.y, margin: 0),
        "\(place.addressName) at \(place.x), \(place.y)")
      XCTAssertEqual(Self.map.dong(x: place.x, y: place.y), named, place.addressName)
    }
  }

  func testNoOtherDongHoldsADemoPlace() {
    // Every polygon against a sample: the grid may not hide a second holder.
    for place in Self.places.prefix(5_000) {
      let holders = Self.map.dongs.indices.filter {
        Self.map.holds($0, x: place.x, y: place.y, margin: 0)
      }
      XCTAssertEqual(holders.count, 1, "\(place.addressName) at \(place.x), \(place.y)")
    }
  }

  func testRoadAddressesAreInTheSameGu() {
    for place in Self.places where !place.roadAddressName.isEmpty {
      let road = place.roadAddressName.split(separator: " ")
      let address = place.addressName.split(separator: " ")
      XCTAssertEqual(road.count, 4, place.roadAddressName)
      XCTAssertEqual(road.prefix(2), address.prefix(2), place.roadAddressName)
      let district = DemoSeoul.districts.first { $0.name == address[1] }
      let roadName = String(road[2])
      XCTAssertTrue(
        district?.roads.contains {
          roadName == $0 || (roadName.hasSuffix("길") && roadName.hasPrefix($0.trimmingSuffix("길")))
        } ?? false, place.roadAddressName)
    }
  }

  func testPhonesAndPageLinksAreInKakaosForm() {
    var withPhone: [PlaceCategory: (Int, Int)] = [:]
    for place in Self.places {
      XCTAssertEqual(place.placeUrl, "http://place.map.kakao.com/\(place.id)")
      XCTAssertTrue(place.phone.isEmpty || Self.isKakaoPhone(place.phone), place.phone)
      let (has, all) = withPhone[place.category] ?? (0, 0)
      withPhone[place.category] = (has + (place.phone.isEmpty ? 0 : 1), all + 1)
    }
    func share(_ category: PlaceCategory) -> Double {
      let (has, all) = withPhone[category] ?? (0, 1)
      return Double(has) / Double(all)
    }
    XCTAssertEqual(share(.subwayStation), 1)
    for category in [PlaceCategory.hospital, .pharmacy, .bank, .restaurant, .cafe] {
      XCTAssertGreaterThan(share(category), 0.85, category.code)
    }
    XCTAssertLessThan(share(.parking), 0.5)
  }

  func testTheSameCountAndSeedGiveTheSamePlaces() {
    let again = DemoPlaces.places(count: 2_000)
    XCTAssertEqual(again, Array(Self.places.prefix(2_000)), "a prefix of the larger run")
    XCTAssertNotEqual(DemoPlaces.places(count: 100, seed: 7), Array(again.prefix(100)))
    XCTAssertEqual(DemoPlaces.fingerprint.count, 16)
    XCTAssertEqual(DemoPlaces.fingerprint, DemoPlaces.fingerprint)
  }

  /// `02-555-1234`, `02-3452-7788`, `070-4123-5678`, `031-8018-7777`, `1577-1234`.
  static func isKakaoPhone(_ phone: String) -> Bool {
    let groups = phone.split(separator: "-", omittingEmptySubsequences: false)
    guard
      groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    else { return false }
    switch groups.count {
    case 2: return groups[0].count == 4 && groups[0].hasPrefix("1") && groups[1].count == 4
    case 3:
      return groups[0].hasPrefix("0") && (2...3).contains(groups[0].count)
        && (3...4).contains(groups[1].count) && groups[2].count == 4
    default: return false
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
    hasSuffix(suffix) ? dropLast(suffix.count) : Substring(self)
  }
}
