import Protocol
import Services

/// `products/create {nameKo, nameEn?, price, supplierId?}` → Product, after `products/listUpdated`.
enum ProductsCreate {
  static let method = Method.task("products/create") { params, context in
    let params = try Params(params)
    let draft = ProductDraft(
      nameKo: try params.requiredString("nameKo"), nameEn: try params.string("nameEn"),
      price: try params.requiredInt("price"),
      supplierId: try params.string("supplierId", maxLength: 100))
    let product = try await context.daemon.services.products.create(
      draft, changed: ProductNotifications.sender(context.notify))
    await FeedNotifications.productsChanged(
      ProductChange(reason: .created, id: product.id, product: product), context.daemon.services,
      notify: context.notify, notifyAll: context.notifyAll)
    return product.json
  }
}
