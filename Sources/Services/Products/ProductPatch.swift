/// The fields of `products/update`: only those present change. A field sent
/// as `null` (`nameEn`, `supplierId`, `imageUrl`) is cleared.
public struct ProductPatch: Sendable, Hashable {
  public var nameKo: String?
  /// `.some(nil)` clears the English name.
  public var nameEn: String??
  public var price: Int?
  /// `.some(nil)` removes the supplier.
  public var supplierId: String??
  /// `.some(nil)` removes the image.
  public var imageUrl: String??

  public init(
    nameKo: String? = nil, nameEn: String?? = nil, price: Int? = nil, supplierId: String?? = nil,
    imageUrl: String?? = nil
  ) {
    self.nameKo = nameKo
    self.nameEn = nameEn
    self.price = price
    self.supplierId = supplierId
    self.imageUrl = imageUrl
  }

  public var isEmpty: Bool {
    nameKo == nil && nameEn == nil && price == nil && supplierId == nil && imageUrl == nil
  }
}
