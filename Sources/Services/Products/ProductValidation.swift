/// The field rules of products, checked before any backend is asked.
public enum ProductValidation {
  public static let maxNameLength = 200
  public static let maxPrice = 1_000_000_000_000

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

  public static func draft(_ draft: ProductDraft) throws(InvalidArgument) -> ProductDraft {
    ProductDraft(
      nameKo: try name(draft.nameKo, field: "nameKo"),
      nameEn: try draft.nameEn.map { value throws(InvalidArgument) in
        try name(value, field: "nameEn")
      },
      price: try price(draft.price), supplierId: draft.supplierId)
  }

  public static func patch(_ patch: ProductPatch) throws(InvalidArgument) -> ProductPatch {
    var checked = patch
    if let nameKo = patch.nameKo { checked.nameKo = try name(nameKo, field: "nameKo") }
    if case .some(.some(let nameEn)) = patch.nameEn {
      checked.nameEn = .some(try name(nameEn, field: "nameEn"))
    }
    if let price = patch.price { checked.price = try self.price(price) }
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
