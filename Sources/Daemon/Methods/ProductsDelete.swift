import Protocol
import Services

/// `products/delete {id}` → `{id}`, after `products/listUpdated`.
enum ProductsDelete {
  static let contract = MethodContract(
    "products/delete",
    "Deletes a product; products/listUpdated {reason: deleted} precedes the reply.",
    params: [ProductLane.id],
    result: MethodResult("Deleted", .object([Member("id", .string, required: true)])))

  static let method = Method.task(contract, lane: ProductLane.byId) { params, context in
    let id = params[ProductLane.id]
    try await context.daemon.services.products.delete(
      id: id, changed: ProductNotifications.sender(context.notify))
    await FeedNotifications.productsChanged(
      ProductChange(reason: .deleted, id: id), context.daemon.services,
      notify: context.notify, notifyAll: context.notifyAll, locale: context.locale)
    return ["id": JSON(id)]
  }
}
