import Protocol

/// A place of the map app, with Kakao Local's fields in camelCase.
public struct Place: Sendable, Hashable {
  /// Opaque; Kakao's ids are decimal numbers written as strings.
  public let id: String
  public var placeName: String
  public var category: PlaceCategory
  /// Kakao's category path, such as `음식점 > 한식 > 국밥`; may be empty.
  public var categoryName: String
  /// May be empty.
  public var phone: String
  /// The lot-number address (`서울 강남구 역삼동 123-4`); may be empty.
  public var addressName: String
  /// The road-name address (`서울 강남구 테헤란로 123`); may be empty.
  public var roadAddressName: String
  /// Longitude in degrees.
  public var x: Double
  /// Latitude in degrees.
  public var y: Double
  /// Whole metres from the search centre; nil outside a search with a centre.
  public var distance: Int?
  /// A page about the place; may be empty.
  public var placeUrl: String

  public init(
    id: String, placeName: String, category: PlaceCategory, categoryName: String = "",
    phone: String = "", addressName: String = "", roadAddressName: String = "", x: Double,
    y: Double, distance: Int? = nil, placeUrl: String = ""
  ) {
    self.id = id
    self.placeName = placeName
    self.category = category
    self.categoryName = categoryName
    self.phone = phone
    self.addressName = addressName
    self.roadAddressName = roadAddressName
    self.x = x
    self.y = y
    self.distance = distance
    self.placeUrl = placeUrl
  }

  public var categoryGroupCode: String { category.code }
  public var categoryGroupName: String { category.name }
  public var coordinate: PlaceCoordinate { PlaceCoordinate(x: x, y: y) }

  /// `{id, placeName, categoryGroupCode, categoryGroupName, categoryName, phone,
  /// addressName, roadAddressName, x, y, distance|null, placeUrl}`.
  public var json: JSON {
    [
      "id": JSON(id), "placeName": JSON(placeName), "categoryGroupCode": JSON(category.code),
      "categoryGroupName": JSON(category.name), "categoryName": JSON(categoryName),
      "phone": JSON(phone), "addressName": JSON(addressName),
      "roadAddressName": JSON(roadAddressName), "x": JSON(x), "y": JSON(y),
      "distance": distance.map { JSON($0) } ?? .null, "placeUrl": JSON(placeUrl),
    ]
  }
}
