import Protocol
import Services

/// `products/update {id, nameKo?, nameEn?, price?, supplierId?, expectedVersion?}` → Product,
/// after `products/listUpdated` and `products/changed`. `nameEn` or
/// `supplierId` sent as `null` clears it. Updates of one product apply in arrival order.
enum ProductsUpdate {
  static let method = Method.task("products/update", lane: ProductLane.byId) { params, context in
    let params = try Params(params)
    let id = try params.requiredString("id", maxLength: 100)
    for field in ["nameKo", "price"] where params.object[field]?.isNull == true {
      throw RPCError.invalidParams(field: field, reason: "cannot be null")
    }
    let patch = ProductPatch(
      nameKo: try params.string("nameKo"), nameEn: try clearable(params, "nameEn"),
      price: try params.int("price"), supplierId: try clearable(params, "supplierId"))
    guard !patch.isEmpty else {
      throw RPCError.invalidParams(field: "params", reason: "nothing to update")
    }
    let product = try await context.daemon.services.products.update(
      id: id, patch, expectedVersion: try params.int("expectedVersion", in: 0...Int.max),
      changed: ProductNotifications.sender(context.notify))
    await FeedNotifications.productsChanged(
      ProductChange(reason: .updated, id: product.id, product: product), context.daemon.services,
      notify: context.notify, notifyAll: context.notifyAll)
    return product.json
  }

  /// Absent → no change (`nil`); `null` → clear (`.some(nil)`); a string → set.
  private static func clearable(_ params: Params, _ name: String) throws -> String?? {
    guard let value = params.object[name] else { return nil }
    if value.isNull { return .some(nil) }
    return .some(try params.string(name, maxLength: 200))
  }
}
