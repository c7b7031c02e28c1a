/// Quotes from the built-in corpus: works offline, with no set-up.
public struct EmbeddedQuoteBackend: QuoteBackend {
  public var kind: String { "embedded" }

  /// The quotes to serve; nil serves `QuoteCorpus`, read on first use.
  private let fixedQuotes: [Quote]?

  /// Serves the built-in corpus.
  public init() { fixedQuotes = nil }

  /// Serves `quotes` (tests, or a corpus loaded from elsewhere).
  public init(quotes: [Quote]) { fixedQuotes = quotes }

  private func allQuotes() throws(QuoteCorpus.Unreadable) -> [Quote] {
    if let fixedQuotes { return fixedQuotes }
    return try QuoteCorpus.quotes()
  }

  public func random(_ filter: QuoteFilter, excluding excludedID: String?) async throws -> Quote {
    let matches = try allQuotes().filter(filter.matches)
    // The excluded quote is dropped only when another one remains: with a single
    // match, repeating it beats failing.
    let others = matches.filter { $0.id != excludedID }
    guard let quote = (others.isEmpty ? matches : others).randomElement() else {
      throw QuotesError.noMatch
    }
    return quote
  }

  public func list(page: Int, limit: Int, author: String?, tags: [String]) async throws -> QuotePage
  {
    guard page >= 1 else { throw InvalidArgument(field: "page", reason: "must be at least 1") }
    guard limit >= 1 else { throw InvalidArgument(field: "limit", reason: "must be at least 1") }
    let filter = QuoteFilter(tags: tags, author: author)
    let matches = try allQuotes().filter(filter.matches)
    let (start, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
    guard !overflow, start < matches.count else {
      return QuotePage(items: [], page: page, nextPage: nil)
    }
    let end = start + min(limit, matches.count - start)
    return QuotePage(
      items: Array(matches[start..<end]), page: page, nextPage: end < matches.count ? page + 1 : nil
    )
  }
}
