import Protocol
import Services

/// `products/delete {id}` → `{id}`, after `products/listUpdated`.
enum ProductsDelete {
  static let method = Method.task("products/delete", lane: ProductLane.byId) { params, context in
    let id = try Params(params).requiredString("id", maxLength: 100)
    try await context.daemon.services.products.delete(
      id: id, changed: ProductNotifications.sender(context.notify))
    await FeedNotifications.productsChanged(
      ProductChange(reason: .deleted, id: id), context.daemon.services,
      notify: context.notify, notifyAll: context.notifyAll)
    return ["id": JSON(id)]
  }
}
