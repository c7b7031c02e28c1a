import Protocol

/// A Kakao Local category group: the 18 codes a place can have, in Kakao's
/// documented order, with their Korean names.
///
/// The raw value is the position in that order; it never changes, so code
/// may keep it in memory (the spatial index does) but the files store `code`.
public enum PlaceCategory: UInt8, CaseIterable, Sendable, Hashable {
  case largeMart = 0
  case convenienceStore
  case kindergarten
  case school
  case academy
  case parking
  case gasStation
  case subwayStation
  case bank
  case culture
  case realEstateAgency
  case publicInstitution
  case attraction
  case lodging
  case restaurant
  case cafe
  case hospital
  case pharmacy

  /// The category group code, such as `FD6`.
  public var code: String {
    switch self {
    case .largeMart: "MT1"
    case .convenienceStore: "CS2"
    case .kindergarten: "PS3"
    case .school: "SC4"
    case .academy: "AC5"
    case .parking: "PK6"
    case .gasStation: "OL7"
    case .subwayStation: "SW8"
    case .bank: "BK9"
    case .culture: "CT1"
    case .realEstateAgency: "AG2"
    case .publicInstitution: "PO3"
    case .attraction: "AT4"
    case .lodging: "AD5"
    case .restaurant: "FD6"
    case .cafe: "CE7"
    case .hospital: "HP8"
    case .pharmacy: "PM9"
    }
  }

  /// The category group name Kakao gives, such as `음식점`.
  public var name: String {
    switch self {
    case .largeMart: "대형마트"
    case .convenienceStore: "편의점"
    case .kindergarten: "어린이집·유치원"
    case .school: "학교"
    case .academy: "학원"
    case .parking: "주차장"
    case .gasStation: "주유소·충전소"
    case .subwayStation: "지하철역"
    case .bank: "은행"
    case .culture: "문화시설"
    case .realEstateAgency: "중개업소"
    case .publicInstitution: "공공기관"
    case .attraction: "관광명소"
    case .lodging: "숙박"
    case .restaurant: "음식점"
    case .cafe: "카페"
    case .hospital: "병원"
    case .pharmacy: "약국"
    }
  }

  /// The category of a code (exact, upper case); nil for anything else.
  public init?(code: String) {
    guard let category = Self.byCode[code] else { return nil }
    self = category
  }

  private static let byCode: [String: PlaceCategory] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.code, $0) })

  /// Every code, in Kakao's order: for error messages and the OpenRPC enum.
  public static var codes: [String] { allCases.map(\.code) }

  /// `{code, name}`.
  public var json: JSON { ["code": JSON(code), "name": JSON(name)] }
}
