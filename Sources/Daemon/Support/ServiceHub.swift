import Protocol
import Services

/// The services one daemon hosts, each on the backend its configuration selects.
final class ServiceHub: Sendable {
  let quotes: QuotesService

  init(configuration: Configuration) {
    let timeout = Duration.milliseconds(configuration.upstreamTimeoutMilliseconds)
    let backend: any QuoteBackend =
      configuration.quotesURL.map { RemoteQuoteBackend(baseURL: $0, timeout: timeout) }
      ?? EmbeddedQuoteBackend()
    quotes = QuotesService(backend: backend)
  }

  /// Each service's backend kind, for `daemon/status`.
  var backends: JSON {
    ["quotes": JSON(quotes.backend.kind)]
  }

  /// What `initialize` announces: the services, their backends and methods.
  var capabilities: JSON {
    [
      "quotes": [
        "backend": JSON(quotes.backend.kind),
        "methods": ["quotes/list", "quotes/random"],
        "notifications": ["quotes/loading"],
      ]
    ]
  }
}
