import Protocol
import Services

/// `photos/list {page?, limit?}` → `{items, page, nextPage}`.
enum PhotosList {
  static let page: Param<Int> = .integer("page", 1...100_000, default: 1, "1-based")
  static let limit: Param<Int> = .integer(
    "limit", 1...PhotosService.maxLimit, default: PhotosService.defaultLimit, "photos per page")

  static let contract = MethodContract(
    "photos/list",
    "Photos page by page: the folder's JPEG, PNG, GIF and WebP files ordered by relative path, or "
      + "the Lorem Picsum list.",
    params: [page, limit], result: .component(PhotoSchemas.photoPage))

  static let method = Method.task(contract) { params, context in
    try await context.daemon.services.photos.list(page: params[page], limit: params[limit]).json
  }
}
