import Protocol
import Services

/// `products/update {id, nameKo?, nameEn?, price?, supplierId?, imageUrl?, expectedVersion?}` →
/// Product, after `products/listUpdated` and `products/changed`. `nameEn`,
/// `supplierId` or `imageUrl` sent as `null` clears it. Updates of one product apply in arrival order.
enum ProductsUpdate {
  /// A product's name in either language.
  static let name = Schema.string(minLength: 1, maxLength: ProductValidation.maxNameLength)
  /// A product's picture (`ProductValidation.imageURL` checks the rest).
  static let imageURL = Schema.string(
    minLength: 1, maxLength: ProductValidation.maxImageURLLength, format: "uri")

  static let nameKo: Param<String?> = .string("nameKo", name, "1–200 characters")
  static let nameEn: Param<JSON?> = .value("nameEn", .nullable(name), "null clears it")
  static let price: Param<Int?> = .integer("price", minimum: 0, "won")
  static let supplierId: Param<JSON?> = .value(
    "supplierId", .nullable(.string(maxLength: 100)), "null removes the supplier")
  static let imageUrl: Param<JSON?> = .value(
    "imageUrl", .nullable(imageURL), "an http, https or file URL; null removes the picture")
  static let expectedVersion: Param<Int?> = .integer(
    "expectedVersion", minimum: 0, "the version the client saw; the update fails if it changed")

  static let contract = MethodContract(
    "products/update",
    "Changes the fields given (null clears nameEn, supplierId or imageUrl); products/listUpdated {reason: "
      + "updated} and products/changed precede the reply. A stale expectedVersion: -32009 with "
      + "the current version.",
    params: [ProductLane.id, nameKo, nameEn, price, supplierId, imageUrl, expectedVersion],
    result: .component(ProductSchemas.product))

  static let method = Method.task(contract, lane: ProductLane.byId) { params, context in
    for param in [nameKo.member, price.member] where params.object[param.name]?.isNull == true {
      throw RPCError.invalidParams(field: param.name, reason: "cannot be null")
    }
    let patch = ProductPatch(
      nameKo: params[nameKo], nameEn: clearable(params[nameEn]), price: params[price],
      supplierId: clearable(params[supplierId]), imageUrl: clearable(params[imageUrl]))
    guard !patch.isEmpty else {
      throw RPCError.invalidParams(field: "params", reason: "nothing to update")
    }
    let product = try await context.daemon.services.products.update(
      id: params[ProductLane.id], patch, expectedVersion: params[expectedVersion],
      changed: ProductNotifications.sender(to: context.daemon.services.sessions))
    await ProductNotifications.broadcast(
      ProductChange(reason: .updated, id: product.id, product: product),
      to: context.daemon.services.sessions,
      announced: true)
    return product.json
  }

  /// Absent → no change (`nil`); `null` → clear (`.some(nil)`); a string → set.
  private static func clearable(_ value: JSON?) -> String?? {
    guard let value else { return nil }
    return .some(value.stringValue)
  }
}
