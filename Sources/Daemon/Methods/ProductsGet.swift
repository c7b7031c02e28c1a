import Protocol

/// `products/get {id}` → Product.
enum ProductsGet {
  static let method = Method.task("products/get", startsOnReader: true) { params, context in
    let id = try Params(params).requiredString("id", maxLength: 100)
    return try await context.daemon.services.products.get(id: id).json
  }
}
