import Protocol

/// Quotes from a quotable-compatible server (https://api.quotable.io or a local
/// stand-in): `GET /random` and `GET /quotes`.
public struct RemoteQuoteBackend: QuoteBackend {
  public var kind: String { "remote" }

  /// The base URL without a trailing slash; the paths are appended to it.
  private let baseURL: String
  /// Limit on each request, connecting included.
  private let timeout: Duration
  private let client: HTTPClient

  static let service = "quotes"

  public init(baseURL: String, timeout: Duration = .seconds(10), client: HTTPClient = HTTPClient())
  {
    var baseURL = baseURL
    while baseURL.hasSuffix("/") { baseURL.removeLast() }
    self.baseURL = baseURL
    self.timeout = timeout
    self.client = client
  }

  /// A random quote matching `filter`, never `excludedID` when another
  /// matches: a draw that repeats it is drawn again once, and a second
  /// repeat (a narrow filter) takes the first other quote of the filter's
  /// list. At most three requests.
  public func random(_ filter: QuoteFilter, excluding excludedID: String?) async throws -> Quote {
    var query = URLQuery()
    // quotable reads a comma-separated list as "all of these tags".
    query.append("tags", filter.tags.isEmpty ? nil : filter.tags.joined(separator: ","))
    query.append("author", filter.author)
    query.append("minLength", filter.minLength)
    query.append("maxLength", filter.maxLength)
    for _ in 0..<2 {
      let quote = try await randomQuote(query)
      if quote.id != excludedID { return quote }
    }
    var listQuery = query
    listQuery.append("limit", 2)
    let (status, body) = try await get("/quotes", listQuery)
    let listed = try decode(status) { () throws(MalformedPayload) in
      try QuotableFormat.quotes(body["results"] ?? .null)
    }
    guard let quote = listed.first(where: { $0.id != excludedID }) ?? listed.first else {
      throw QuotesError.noMatch
    }
    return quote
  }

  public func list(page: Int, limit: Int, author: String?, tags: [String]) async throws -> QuotePage
  {
    var query = URLQuery()
    query.append("page", page)
    query.append("limit", limit)
    query.append("author", author)
    query.append("tags", tags.isEmpty ? nil : tags.joined(separator: ","))
    let (status, body) = try await get("/quotes", query)
    guard let totalPages = body["totalPages"]?.numberValue?.integralValue else {
      throw malformed(status, "the quote list has no totalPages")
    }
    guard let results = body["results"] else {
      throw malformed(status, "the quote list has no results")
    }
    let items = try decode(status) { () throws(MalformedPayload) in
      try QuotableFormat.quotes(results)
    }
    let page = body["page"]?.numberValue?.integralValue ?? page
    return QuotePage(items: items, page: page, nextPage: page < totalPages ? page + 1 : nil)
  }

  /// One quote from `/random`, which answers with a quote object; the newer
  /// `/quotes/random` shape, an array of quotes, is accepted too.
  private func randomQuote(_ query: URLQuery) async throws -> Quote {
    let (status, body) = try await get("/random", query)
    if case .array(let quotes) = body {
      guard let first = quotes.first else { throw QuotesError.noMatch }
      return try decode(status) { () throws(MalformedPayload) in
        try QuotableFormat.quote(first)
      }
    }
    return try decode(status) { () throws(MalformedPayload) in
      try QuotableFormat.quote(body)
    }
  }

  /// The JSON body of a 2xx response to `GET {baseURL}{path}{query}`.
  private func get(_ path: String, _ query: URLQuery) async throws -> (status: Int, body: JSON) {
    let request = HTTPRequest(
      url: baseURL + path + query.text, headers: [.init("Accept", "application/json")],
      timeout: timeout, connectTimeout: min(timeout, .seconds(5)))
    let response = try await client.send(request, for: Self.service)
    let body = response.json
    guard response.isSuccess else {
      let message = upstreamMessage(try? body.get())  // An error page need not be JSON.
      // quotable answers 404 "Could not find any matching quotes" when the filter
      // matches nothing; any other 404 (a wrong base URL) stays an upstream error.
      if response.status == 404, path == "/random",
        let message, message.lowercased().contains("match")
      {
        throw QuotesError.noMatch
      }
      throw UpstreamFailure.errorStatus(
        service: Self.service, status: response.status, message: message)
    }
    switch body {
    case .success(let json): return (response.status, json)
    case .failure(let error): throw malformed(response.status, "the body is not JSON (\(error))")
    }
  }

  /// The upstream's own error message (quotable's `statusMessage`, or `message`),
  /// shortened so a verbose upstream cannot flood the client.
  private func upstreamMessage(_ body: JSON?) -> String? {
    guard let message = body?["statusMessage"]?.stringValue ?? body?["message"]?.stringValue
    else { return nil }
    return UpstreamFailure.shortened(message)
  }

  private func decode<T>(_ status: Int, _ read: () throws(MalformedPayload) -> T)
    throws(UpstreamFailure) -> T
  {
    try UpstreamFailure.decoding(service: Self.service, status: status, read)
  }

  private func malformed(_ status: Int, _ reason: String) -> UpstreamFailure {
    .malformed(service: Self.service, status: status, reason)
  }
}
