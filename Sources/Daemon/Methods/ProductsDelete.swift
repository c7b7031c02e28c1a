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
      id: id, changed: ProductNotifications.sender(to: context.daemon.services.sessions))
    await ProductNotifications.broadcast(
      ProductChange(reason: .deleted, id: id), to: context.daemon.services.sessions,
      announced: true)
    return ["id": JSON(id)]
  }
}
