import Protocol

/// Reads Kakao Local's category search answer:
/// `{meta: {total_count, pageable_count, is_end}, documents: [{id, place_name,
/// category_name, category_group_code, category_group_name, phone,
/// address_name, road_address_name, x, y, place_url, distance}]}`, where x, y
/// and distance are strings (distance empty without a centre).
enum KakaoLocalFormat {
  /// Why a JSON value is not the expected answer.
  struct Malformed: Error, Sendable {
    let reason: String
  }

  static func result(_ body: JSON, searched category: PlaceCategory) throws(Malformed)
    -> PlaceSearchResult
  {
    guard let meta = body["meta"]?.objectValue else { throw Malformed(reason: "no meta object") }
    guard let total = meta["total_count"]?.numberValue?.integralValue, total >= 0 else {
      throw Malformed(reason: "meta has no total_count")
    }
    let pageable = meta["pageable_count"]?.numberValue?.integralValue ?? min(total, 45)
    guard let isEnd = meta["is_end"]?.boolValue else {
      throw Malformed(reason: "meta has no is_end")
    }
    guard let documents = body["documents"]?.arrayValue else {
      throw Malformed(reason: "no documents array")
    }
    var items: [Place] = []
    items.reserveCapacity(documents.count)
    for document in documents {
      items.append(try place(document, searched: category))
    }
    return PlaceSearchResult(
      items: items,
      meta: PlaceSearchMeta(totalCount: total, pageableCount: max(pageable, 0), isEnd: isEnd))
  }

  static func place(_ document: JSON, searched category: PlaceCategory) throws(Malformed) -> Place {
    guard case .object(let object) = document else {
      throw Malformed(reason: "a document is \(document.typeName), not an object")
    }
    guard let id = text(object["id"]), !id.isEmpty else {
      throw Malformed(reason: "a document has no id")
    }
    guard let x = number(object["x"]), let y = number(object["y"]),
      PlaceCoordinate(x: x, y: y).isValid
    else { throw Malformed(reason: "place \(id) has no numeric x and y") }
    let distance = text(object["distance"]).flatMap { Double($0) }.map(PlaceGeometry.wholeMetres)
    return Place(
      id: id, placeName: text(object["place_name"]) ?? "",
      category: text(object["category_group_code"]).flatMap(PlaceCategory.init(code:)) ?? category,
      categoryName: text(object["category_name"]) ?? "", phone: text(object["phone"]) ?? "",
      addressName: text(object["address_name"]) ?? "",
      roadAddressName: text(object["road_address_name"]) ?? "", x: x, y: y, distance: distance,
      placeUrl: text(object["place_url"]) ?? "")
  }

  /// A string, or a number's text (a server may send numbers where Kakao sends strings).
  private static func text(_ value: JSON?) -> String? {
    switch value {
    case .string(let string)?: string
    case .number(let number)?: number.text
    default: nil
    }
  }

  private static func number(_ value: JSON?) -> Double? {
    switch value {
    case .string(let string)?: Double(string)
    case .number(let number)?: number.doubleValue
    default: nil
    }
  }

  /// The upstream's own error message: Kakao's `message` (with its
  /// `errorType`), or the older `msg`; shortened so a verbose upstream cannot
  /// flood the client.
  static func errorMessage(_ body: JSON?) -> String? {
    guard let body else { return nil }
    var message = body["message"]?.stringValue ?? body["msg"]?.stringValue
    if let type = body["errorType"]?.stringValue {
      message = message.map { "\(type): \($0)" } ?? type
    }
    guard let message else { return nil }
    return message.count > 200 ? String(message.prefix(200)) + "…" : message
  }
}
