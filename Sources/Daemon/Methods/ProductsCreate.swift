import Protocol
import Services

/// `products/create {nameKo, nameEn?, price, supplierId?, imageUrl?}` → Product, after
/// `products/listUpdated`.
enum ProductsCreate {
  static let nameKo: Param<String> = .requiredString(
    "nameKo", ProductsUpdate.name, "the Korean name, 1–200 characters")
  static let nameEn: Param<String?> = .string(
    "nameEn", .nullable(ProductsUpdate.name), "the English name, 1–200 characters")
  static let price: Param<Int> = .requiredInteger("price", minimum: 0, "won")
  static let supplierId: Param<String?> = .string(
    "supplierId", .nullable(.string(maxLength: 100)), "an existing supplier")
  static let imageUrl: Param<String?> = .string(
    "imageUrl", .nullable(ProductsUpdate.imageURL),
    "the picture: an http, https or file URL (file:///absolute/path)")

  static let contract = MethodContract(
    "products/create",
    "Creates a product; products/listUpdated {reason: created} precedes the reply. Durable once "
      + "answered.",
    params: [nameKo, nameEn, price, supplierId, imageUrl],
    result: .component(ProductSchemas.product))

  static let method = Method.task(contract) { params, context in
    let draft = ProductDraft(
      nameKo: params[nameKo], nameEn: params[nameEn], price: params[price],
      supplierId: params[supplierId], imageUrl: params[imageUrl])
    let product = try await context.daemon.services.products.create(
      draft, changed: ProductNotifications.sender(to: context.daemon.services.sessions))
    await ProductNotifications.broadcast(
      ProductChange(reason: .created, id: product.id, product: product),
      to: context.daemon.services.sessions,
      announced: true)
    return product.json
  }
}
