import Protocol
import Services

/// `quotes/list {page?, limit?, author?, tag?}` → `{items, page, nextPage}`.
enum QuotesList {
  static let method = Method.task("quotes/list") { params, context in
    let params = try Params(params)
    let page = try params.int("page", in: 1...100_000) ?? 1
    let limit = try params.int("limit", in: 1...100) ?? 20
    let quotes = try await context.daemon.services.quotes.list(
      page: page, limit: limit, author: try params.string("author", maxLength: 200),
      tag: try params.string("tag", maxLength: 100))
    return quotes.json
  }
}
