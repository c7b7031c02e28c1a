import Protocol

/// Reads the values of the upstream's `data` (the selections of
/// `Upstream/operations.graphql`) into products, pages and suppliers.
///
/// Every selected field must have its schema type, and every non-null one be
/// present: a missing required field or a wrong type is `MalformedPayload`,
/// with the path of the value in its reason (`productList.itemList[2].price is
/// a string, not an integer`). A nullable field that is missing reads as null.
enum GraphQLProductFormat {
  /// A `Product` selection; `version` is derived from `updatedAt` (see `GraphQLProductVersion`).
  static func product(_ json: JSON, at path: String) throws(MalformedPayload) -> Product {
    let object = try object(json, at: path)
    let supplierValue = object["supplier"] ?? .null
    let updatedAt = try optionalString("updatedAt", of: object, at: path)
    return Product(
      id: try string("id", of: object, at: path),
      nameKo: try string("nameKo", of: object, at: path),
      nameEn: try optionalString("nameEn", of: object, at: path),
      price: try integer("price", of: object, at: path),
      supplier: supplierValue.isNull ? nil : try supplier(supplierValue, at: path + ".supplier"),
      createdAt: try optionalString("createdAt", of: object, at: path), updatedAt: updatedAt,
      version: GraphQLProductVersion.of(updatedAt: updatedAt),
      imageUrl: webImageURL(try optionalString("imageUrl", of: object, at: path)))
  }

  /// An upstream's image URL if it is a valid http or https one: a `file:` URL
  /// would name a file on the upstream's machine (or make `images/get` read
  /// one of ours), and anything else no client can load. Others read as null.
  static func webImageURL(_ url: String?) -> String? {
    guard let url, (try? ProductValidation.imageURL(url)) != nil,
      url.prefix(5).lowercased() == "http:" || url.prefix(6).lowercased() == "https:"
    else { return nil }
    return url
  }

  static func supplier(_ json: JSON, at path: String) throws(MalformedPayload) -> Supplier {
    let object = try object(json, at: path)
    return Supplier(
      id: try string("id", of: object, at: path), name: try string("name", of: object, at: path))
  }

  /// A `ProductList` selection: `{itemList, totalCount, nextCursor}`.
  static func page(_ json: JSON, at path: String) throws(MalformedPayload) -> ProductPage {
    let object = try object(json, at: path)
    var items: [Product] = []
    for (offset, item) in try array("itemList", of: object, at: path).enumerated() {
      items.append(try product(item, at: "\(path).itemList[\(offset)]"))
    }
    return ProductPage(
      items: items, nextCursor: try optionalString("nextCursor", of: object, at: path),
      totalCount: try integer("totalCount", of: object, at: path))
  }

  /// A `SupplierList` selection: `{itemList}`.
  static func suppliers(_ json: JSON, at path: String) throws(MalformedPayload) -> [Supplier] {
    let object = try object(json, at: path)
    var suppliers: [Supplier] = []
    for (offset, item) in try array("itemList", of: object, at: path).enumerated() {
      suppliers.append(try supplier(item, at: "\(path).itemList[\(offset)]"))
    }
    return suppliers
  }

  /// An `ID!` (GraphQL serializes IDs as strings).
  static func id(_ json: JSON, at path: String) throws(MalformedPayload) -> String {
    guard let id = json.stringValue else {
      throw MalformedPayload(reason: "\(path) is \(article(json.typeName)), not a string")
    }
    return id
  }

  private static func object(_ json: JSON, at path: String) throws(MalformedPayload) -> JSONObject {
    guard let object = json.objectValue else {
      throw MalformedPayload(reason: "\(path) is \(article(json.typeName)), not an object")
    }
    return object
  }

  private static func member(_ key: String, of object: JSONObject, at path: String)
    throws(MalformedPayload) -> JSON
  {
    guard let value = object[key] else {
      throw MalformedPayload(reason: "\(path).\(key) is missing")
    }
    return value
  }

  private static func string(_ key: String, of object: JSONObject, at path: String)
    throws(MalformedPayload) -> String
  {
    let value = try member(key, of: object, at: path)
    guard let string = value.stringValue else {
      throw MalformedPayload(reason: "\(path).\(key) is \(article(value.typeName)), not a string")
    }
    return string
  }

  private static func optionalString(_ key: String, of object: JSONObject, at path: String)
    throws(MalformedPayload) -> String?
  {
    guard let value = object[key], !value.isNull else { return nil }
    guard let string = value.stringValue else {
      throw MalformedPayload(
        reason: "\(path).\(key) is \(article(value.typeName)), not a string or null")
    }
    return string
  }

  private static func integer(_ key: String, of object: JSONObject, at path: String)
    throws(MalformedPayload) -> Int
  {
    let value = try member(key, of: object, at: path)
    guard let integer = value.numberValue?.integralValue else {
      throw MalformedPayload(reason: "\(path).\(key) is \(article(value.typeName)), not an integer")
    }
    return integer
  }

  private static func array(_ key: String, of object: JSONObject, at path: String)
    throws(MalformedPayload) -> [JSON]
  {
    let value = try member(key, of: object, at: path)
    guard let array = value.arrayValue else {
      throw MalformedPayload(reason: "\(path).\(key) is \(article(value.typeName)), not an array")
    }
    return array
  }

  /// The JSON type with its article, for reasons: "an array", "a string", "null".
  static func article(_ typeName: String) -> String {
    switch typeName {
    case "null": "null"
    case "array", "object": "an \(typeName)"
    default: "a \(typeName)"
    }
  }
}
