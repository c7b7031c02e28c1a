/// The quote app's view model: a random quote that never repeats the previous
/// one, a paged list, and a loading state for the refresh button.
///
/// Loading is the refresh button's: the fetches of `random` only (a list
/// page or a feed's page is no reason to disable it). It is reported through
/// the `loading` closure of each `random`: `true` when the number of running
/// random fetches goes from 0 to 1, `false` when it goes back to 0, failures
/// and cancellations included. The closure runs synchronously, before the
/// call returns or throws, so a notification the daemon writes from it
/// precedes the response of the request that caused it.
public actor QuotesService {
  public nonisolated let backend: any QuoteBackend
  /// The id of the quote `random` returned last; the next `random` avoids it.
  /// One daemon serves one client, so "last" is that client's last quote.
  private var lastQuoteID: String?
  /// How many `random` calls are waiting for the backend.
  private var runningFetches = 0

  public init(backend: any QuoteBackend) {
    self.backend = backend
  }

  /// True while a `random` fetch runs: the refresh button is enabled exactly when this is false.
  public var isLoading: Bool { runningFetches > 0 }

  /// A quote matching `filter`, other than the last one returned when another matches.
  /// - Throws: `InvalidArgument`, `QuotesError.noMatch`, `UpstreamFailure`, `CancellationError`.
  public func random(_ filter: QuoteFilter, loading: @Sendable (_ isLoading: Bool) -> Void)
    async throws -> Quote
  {
    try filter.validate()
    let excludedID = lastQuoteID
    let quote = try await fetch(loading) { [backend] in
      try await backend.random(filter, excluding: excludedID)
    }
    lastQuoteID = quote.id
    return quote
  }

  /// Page `page` (from 1) of `limit` quotes, optionally of one author or with all of `tags`.
  /// - Throws: `InvalidArgument`, `UpstreamFailure`, `CancellationError`.
  public func list(page: Int, limit: Int, author: String? = nil, tags: [String] = [])
    async throws -> QuotePage
  {
    guard page >= 1 else { throw InvalidArgument(field: "page", reason: "must be at least 1") }
    guard limit >= 1 else { throw InvalidArgument(field: "limit", reason: "must be at least 1") }
    return try await backend.list(page: page, limit: limit, author: author, tags: tags)
  }

  /// Runs `body` as one random fetch, reporting the 0 → 1 and 1 → 0 transitions.
  private func fetch<Value: Sendable>(
    _ loading: @Sendable (Bool) -> Void, _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    runningFetches += 1
    if runningFetches == 1 { loading(true) }
    defer {
      runningFetches -= 1
      if runningFetches == 0 { loading(false) }
    }
    return try await body()
  }
}
