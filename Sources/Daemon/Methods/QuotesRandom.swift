import Protocol
import Services

/// `quotes/random {tags?, author?, minLength?, maxLength?}` → Quote, with
/// `quotes/loading` true then false before the reply.
enum QuotesRandom {
  static let method = Method.task("quotes/random") { params, context in
    let params = try Params(params)
    let filter = QuoteFilter(
      tags: try params.stringArray("tags") ?? [],
      author: try params.string("author", maxLength: 200),
      minLength: try params.int("minLength", in: 0...100_000),
      maxLength: try params.int("maxLength", in: 0...100_000))
    let quote = try await context.daemon.services.quotes.random(
      filter, loading: QuotesLoading.notifier(context))
    return quote.json
  }
}
