/// Where quotes come from: the built-in corpus or a quotable-compatible server.
public protocol QuoteBackend: Sendable {
  /// "embedded" or "remote", as `initialize` and `daemon/status` report it.
  var kind: String { get }

  /// A quote matching `filter`, other than the one with `excludedID` whenever
  /// another one matches.
  /// - Throws: `QuotesError.noMatch`, `UpstreamFailure`, `CancellationError`.
  func random(_ filter: QuoteFilter, excluding excludedID: String?) async throws -> Quote

  /// Page `page` (from 1) of `limit` quotes, optionally only those of `author`
  /// (name or slug) or with all of `tags`.
  /// - Throws: `UpstreamFailure`, `CancellationError`.
  func list(page: Int, limit: Int, author: String?, tags: [String]) async throws -> QuotePage
}
