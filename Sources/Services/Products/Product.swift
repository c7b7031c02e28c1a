import Protocol

/// A product of the catalog, as clients see it.
public struct Product: Sendable, Hashable {
  public let id: String
  public var nameKo: String
  public var nameEn: String?
  /// Won, an integer.
  public var price: Int
  public var supplier: Supplier?
  /// RFC 3339 UTC; `nil` when the remote upstream does not say.
  public var createdAt: String?
  public var updatedAt: String?
  /// Grows by one at every update; `expectedVersion` of an update is checked against it.
  public var version: Int
  /// An http, https or file URL of the product's picture (`ProductValidation.imageURL`).
  public var imageUrl: String?

  public init(
    id: String, nameKo: String, nameEn: String?, price: Int, supplier: Supplier?,
    createdAt: String?, updatedAt: String?, version: Int, imageUrl: String? = nil
  ) {
    self.id = id
    self.nameKo = nameKo
    self.nameEn = nameEn
    self.price = price
    self.supplier = supplier
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.version = version
    self.imageUrl = imageUrl
  }

  /// `{id, nameKo, nameEn|null, price, supplier|null, createdAt, updatedAt, version, imageUrl|null}`.
  public var json: JSON {
    [
      "id": JSON(id), "nameKo": JSON(nameKo), "nameEn": JSON(nameEn), "price": JSON(price),
      "supplier": supplier?.json ?? .null, "createdAt": JSON(createdAt),
      "updatedAt": JSON(updatedAt), "version": JSON(version), "imageUrl": JSON(imageUrl),
    ]
  }
}
