/// The field rules of products, checked before any backend is asked.
public enum ProductValidation {
  public static let maxNameLength = 200
  public static let maxPrice = 1_000_000_000_000
  /// Browsers and CDNs handle URLs up to about this length everywhere.
  public static let maxImageURLLength = 2_048

  public static func name(_ value: String, field: String) throws(InvalidArgument) -> String {
    let trimmed = value.trimmingSpaces
    guard !trimmed.isEmpty else { throw InvalidArgument(field: field, reason: "must not be empty") }
    // PostgreSQL's text cannot hold U+0000, and no name needs it.
    guard !trimmed.unicodeScalars.contains("\u{0}") else {
      throw InvalidArgument(field: field, reason: "must not contain U+0000")
    }
    guard trimmed.count <= maxNameLength else {
      throw InvalidArgument(field: field, reason: "longer than \(maxNameLength) characters")
    }
    return trimmed
  }

  public static func price(_ value: Int, field: String = "price") throws(InvalidArgument) -> Int {
    guard value >= 0 else { throw InvalidArgument(field: field, reason: "must not be negative") }
    guard value <= maxPrice else {
      throw InvalidArgument(field: field, reason: "must be at most \(maxPrice)")
    }
    return value
  }

  /// An image's URL: `http://host/…`, `https://host/…` or `file:///absolute/path`
  /// (also `file://localhost/…`), without spaces or control characters, at most
  /// `maxImageURLLength` bytes. Returned unchanged.
  public static func imageURL(_ value: String, field: String = "imageUrl") throws(InvalidArgument)
    -> String
  {
    guard value.utf8.count <= maxImageURLLength else {
      throw InvalidArgument(field: field, reason: "longer than \(maxImageURLLength) bytes")
    }
    guard
      !value.unicodeScalars.contains(where: {
        $0.properties.isWhitespace || $0.properties.generalCategory == .control
      })
    else {
      throw InvalidArgument(
        field: field, reason: "must not contain spaces or control characters (percent-encode them)")
    }
    guard let colon = value.firstIndex(of: ":") else {
      throw InvalidArgument(field: field, reason: "must be an http, https or file URL")
    }
    let rest = value[value.index(after: colon)...]
    switch value[..<colon].lowercased() {
    case "http", "https":
      guard rest.hasPrefix("//") else {
        throw InvalidArgument(field: field, reason: "must be of the form http(s)://host/path")
      }
      let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      guard !authority.contains("@") else {
        throw InvalidArgument(field: field, reason: "must not carry a user name or password")
      }
      // An IPv6 literal is bracketed ("[::1]:8080"); otherwise a port follows the first colon.
      let hostEnd =
        authority.hasPrefix("[")
        ? authority.firstIndex(of: "]").map(authority.index(after:)) ?? authority.endIndex
        : authority.firstIndex(of: ":") ?? authority.endIndex
      guard hostEnd > authority.startIndex, authority[..<hostEnd] != "[]" else {
        throw InvalidArgument(field: field, reason: "has no host")
      }
      let port = authority[hostEnd...]
      if !port.isEmpty {
        let digits = port.dropFirst()
        guard port.first == ":", !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
          let number = Int(digits), (1...65_535).contains(number)
        else { throw InvalidArgument(field: field, reason: "has an invalid port") }
      }
    case "file":
      guard rest.hasPrefix("///") || rest.hasPrefix("//localhost/") else {
        throw InvalidArgument(
          field: field, reason: "must be a local absolute file URL (file:///path)")
      }
    default:
      throw InvalidArgument(field: field, reason: "must be an http, https or file URL")
    }
    return value
  }

  public static func draft(_ draft: ProductDraft) throws(InvalidArgument) -> ProductDraft {
    ProductDraft(
      nameKo: try name(draft.nameKo, field: "nameKo"),
      nameEn: try draft.nameEn.map { value throws(InvalidArgument) in
        try name(value, field: "nameEn")
      },
      price: try price(draft.price), supplierId: draft.supplierId,
      imageUrl: try draft.imageUrl.map { value throws(InvalidArgument) in try imageURL(value) })
  }

  public static func patch(_ patch: ProductPatch) throws(InvalidArgument) -> ProductPatch {
    var checked = patch
    if let nameKo = patch.nameKo { checked.nameKo = try name(nameKo, field: "nameKo") }
    if case .some(.some(let nameEn)) = patch.nameEn {
      checked.nameEn = .some(try name(nameEn, field: "nameEn"))
    }
    if let price = patch.price { checked.price = try self.price(price) }
    if case .some(.some(let imageUrl)) = patch.imageUrl {
      checked.imageUrl = .some(try imageURL(imageUrl))
    }
    return checked
  }
}

extension String {
  /// Without leading and trailing white space (FoundationEssentials has no trimming).
  var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}
