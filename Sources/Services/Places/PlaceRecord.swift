/// The fields of one import row, as read from the file, and the rules that
/// make them a `Place` or a rejection.
struct PlaceRecord {
  /// Why a row is rejected (a sentence fragment).
  struct Rejection: Error {
    let reason: String
  }

  /// The longest id accepted, in characters (the daemon's limit for ids).
  static let maxIDLength = 100
  /// The longest text field accepted, in characters.
  static let maxTextLength = 1_000

  /// A Place field an import row may carry.
  enum Field: Int, CaseIterable {
    case id
    case placeName
    case categoryGroupCode
    case categoryName
    case phone
    case addressName
    case roadAddressName
    case x
    case y
    case placeUrl

    /// The wire name.
    var name: String {
      switch self {
      case .id: "id"
      case .placeName: "placeName"
      case .categoryGroupCode: "categoryGroupCode"
      case .categoryName: "categoryName"
      case .phone: "phone"
      case .addressName: "addressName"
      case .roadAddressName: "roadAddressName"
      case .x: "x"
      case .y: "y"
      case .placeUrl: "placeUrl"
      }
    }

    /// Kakao Local's name for it.
    var kakaoName: String {
      switch self {
      case .placeName: "place_name"
      case .categoryGroupCode: "category_group_code"
      case .categoryName: "category_name"
      case .addressName: "address_name"
      case .roadAddressName: "road_address_name"
      case .placeUrl: "place_url"
      default: name
      }
    }

    var isRequired: Bool {
      switch self {
      case .id, .placeName, .categoryGroupCode, .x, .y: true
      default: false
      }
    }

    /// The field a column or property name means, in either spelling.
    static func named(_ name: String) -> Field? { byName[name] }

    private static let byName: [String: Field] = {
      var names: [String: Field] = [:]
      for field in allCases {
        names[field.name] = field
        names[field.kakaoName] = field
      }
      return names
    }()

    static var requiredNames: String {
      allCases.filter(\.isRequired).map(\.name).joined(separator: ", ")
    }
  }

  var id: String?
  var placeName: String?
  var categoryGroupCode: String?
  var categoryName: String?
  var phone: String?
  var addressName: String?
  var roadAddressName: String?
  /// A number, or the text of one (CSV).
  var x: Coordinate?
  var y: Coordinate?
  var placeUrl: String?

  enum Coordinate {
    case number(Double)
    case text(String)
  }

  /// Sets a text field (x and y as text).
  mutating func set(_ field: Field, _ value: String) {
    switch field {
    case .id: id = value
    case .placeName: placeName = value
    case .categoryGroupCode: categoryGroupCode = value
    case .categoryName: categoryName = value
    case .phone: phone = value
    case .addressName: addressName = value
    case .roadAddressName: roadAddressName = value
    case .x: x = .text(value)
    case .y: y = .text(value)
    case .placeUrl: placeUrl = value
    }
  }

  /// The place these fields describe.
  func place() throws(Rejection) -> Place {
    guard let id, !id.isEmpty else { throw Rejection(reason: "id is missing") }
    guard id.count <= Self.maxIDLength else {
      throw Rejection(reason: "id is longer than \(Self.maxIDLength) characters")
    }
    guard let placeName, !placeName.isEmpty else {
      throw Rejection(reason: "placeName is missing")
    }
    guard let code = categoryGroupCode, !code.isEmpty else {
      throw Rejection(reason: "categoryGroupCode is missing")
    }
    guard let category = PlaceCategory(code: code) else {
      throw Rejection(
        reason: "categoryGroupCode \"\(code.prefix(20))\" is not a category group code")
    }
    let x = try Self.coordinate(x, "x", limit: 180, what: "longitude")
    let y = try Self.coordinate(y, "y", limit: 90, what: "latitude")
    for (field, value) in [
      (Field.placeName, placeName), (.categoryName, categoryName), (.phone, phone),
      (.addressName, addressName), (.roadAddressName, roadAddressName), (.placeUrl, placeUrl),
    ] {
      // The byte count bounds the character count from above, and is free.
      guard let value, value.utf8.count > Self.maxTextLength, value.count > Self.maxTextLength
      else { continue }
      throw Rejection(reason: "\(field.name) is longer than \(Self.maxTextLength) characters")
    }
    return Place(
      id: id, placeName: placeName, category: category, categoryName: categoryName ?? "",
      phone: phone ?? "", addressName: addressName ?? "", roadAddressName: roadAddressName ?? "",
      x: x, y: y, placeUrl: placeUrl ?? "")
  }

  private static func coordinate(_ value: Coordinate?, _ name: String, limit: Double, what: String)
    throws(Rejection) -> Double
  {
    let number: Double
    switch value {
    case nil: throw Rejection(reason: "\(name) is missing")
    case .number(let double): number = double
    case .text(let text):
      let trimmed = Self.trimmed(text)
      guard !trimmed.isEmpty else { throw Rejection(reason: "\(name) is missing") }
      guard let double = Double(trimmed) else {
        throw Rejection(reason: "\(name) \"\(trimmed.prefix(30))\" is not a number")
      }
      number = double
    }
    guard number.isFinite, (-limit...limit).contains(number) else {
      throw Rejection(reason: "\(name) must be a \(what) between -\(Int(limit)) and \(Int(limit))")
    }
    return number
  }
}

extension PlaceRecord {
  /// `text` without leading and trailing spaces and tabs.
  static func trimmed(_ text: String) -> Substring {
    var text = Substring(text)
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
