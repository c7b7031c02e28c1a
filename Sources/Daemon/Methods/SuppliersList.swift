import Protocol

/// `suppliers/list {}` → `{items: [{id, name}]}`.
enum SuppliersList {
  static let method = Method.task("suppliers/list") { _, context in
    let suppliers = try await context.daemon.services.products.suppliers()
    return ["items": .array(suppliers.map(\.json))]
  }
}
