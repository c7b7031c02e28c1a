import Protocol
import Services

/// `photos/list {page?, limit?}` → `{items, page, nextPage}`.
enum PhotosList {
  static let method = Method.task("photos/list") { params, context in
    let params = try Params(params)
    let page = try params.int("page", in: 1...100_000) ?? 1
    let limit =
      try params.int("limit", in: 1...PhotosService.maxLimit) ?? PhotosService.defaultLimit
    return try await context.daemon.services.photos.list(page: page, limit: limit).json
  }
}
