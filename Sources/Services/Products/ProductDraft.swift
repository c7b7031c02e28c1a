/// The fields of `products/create`, validated.
public struct ProductDraft: Sendable, Hashable {
  public var nameKo: String
  public var nameEn: String?
  public var price: Int
  public var supplierId: String?
  public var imageUrl: String?

  public init(
    nameKo: String, nameEn: String? = nil, price: Int, supplierId: String? = nil,
    imageUrl: String? = nil
  ) {
    self.nameKo = nameKo
    self.nameEn = nameEn
    self.price = price
    self.supplierId = supplierId
    self.imageUrl = imageUrl
  }
}
