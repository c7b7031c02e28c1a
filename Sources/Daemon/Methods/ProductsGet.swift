import Protocol

/// `products/get {id}` → Product.
enum ProductsGet {
  static let contract = MethodContract(
    "products/get", "One product. Unknown id: -32001.", params: [ProductLane.id],
    result: .component(ProductSchemas.product))

  static let method = Method.read(contract, now: now) { params, context in
    EncodedJSON(try await context.daemon.services.products.get(id: params[ProductLane.id]).json)
  }

  /// The product read on the reader thread, when the catalog can (see `Method.read`).
  private static func now(_ params: Params, _ context: RequestContext) throws -> EncodedJSON? {
    try context.daemon.services.products.getNow(id: params[ProductLane.id])
  }

}
