import Protocol

/// `products/get {id}` → Product.
enum ProductsGet {
  static let contract = MethodContract(
    "products/get", "One product. Unknown id: -32001.", params: [ProductLane.id],
    result: .component(ProductSchemas.product))

  static let method = Method.task(contract, startsOnReader: true) { params, context in
    try await context.daemon.services.products.get(id: params[ProductLane.id]).json
  }
}
