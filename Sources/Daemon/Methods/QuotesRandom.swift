import Protocol
import Services

/// `quotes/random {tags?, author?, minLength?, maxLength?}` → Quote, with
/// `quotes/loading` true then false before the reply.
enum QuotesRandom {
  static let tags: Param<[String]> = .strings("tags", maxLength: 100, "a quote has all of them")
  static let author: Param<String?> = .string(
    "author", maxLength: 200, "author name or slug, case-insensitive")
  static let minLength: Param<Int?> = .integer(
    "minLength", minimum: 0, maximum: 100_000, "shortest content, in characters")
  static let maxLength: Param<Int?> = .integer(
    "maxLength", minimum: 0, maximum: 100_000, "longest content, in characters")

  static let contract = MethodContract(
    "quotes/random",
    "A random quote matching the filters, never the same quote twice in a row; quotes/loading "
      + "true then false precede the reply. No match: -32001.",
    params: [tags, author, minLength, maxLength], result: .component(QuoteSchemas.quote))

  static let method = Method.task(contract) { params, context in
    let filter = QuoteFilter(
      tags: params[tags], author: params[author], minLength: params[minLength],
      maxLength: params[maxLength])
    let quote = try await context.daemon.services.quotes.random(
      filter, loading: QuotesLoading.notifier(context))
    return quote.json
  }
}
