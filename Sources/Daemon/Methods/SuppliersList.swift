import Protocol

/// `suppliers/list {}` → `{items: [{id, name}]}`.
enum SuppliersList {
  static let contract = MethodContract(
    "suppliers/list", "Every supplier, by name.",
    result: MethodResult(
      "SupplierList",
      .object([Member("items", .array(of: .reference(ProductSchemas.supplier)), required: true)])))

  static let method = Method.task(contract) { _, context in
    let suppliers = try await context.daemon.services.products.suppliers()
    return ["items": .array(suppliers.map(\.json))]
  }
}
