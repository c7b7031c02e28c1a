import Protocol

/// The built-in quotes (500 from the quotable project, MIT licence), compiled into
/// the binary by `scripts/embed-quotes` and parsed on first use, never at start-up.
public enum QuoteCorpus {
  /// The corpus could not be read: the generated Swift file is broken. The
  /// corpus test guards against this; the daemon would answer -32603.
  public struct Unreadable: Error, Sendable, CustomStringConvertible {
    public let description: String
  }

  /// Parsed once: Swift initializes a static stored property lazily, on first
  /// access, and exactly once even when threads race to it.
  private static let parsed = Result { () throws(Unreadable) -> [Quote] in
    try parse(embeddedQuotesJSON)
  }

  /// Every quote of the corpus, in corpus order.
  public static func quotes() throws(Unreadable) -> [Quote] {
    try parsed.get()
  }

  static func parse(_ text: String) throws(Unreadable) -> [Quote] {
    let json: JSON
    do {
      json = try JSONParser.parse(text)
    } catch {
      throw Unreadable(description: "the quote corpus is not JSON: \(error)")
    }
    do {
      return try QuotableFormat.quotes(json)
    } catch {
      throw Unreadable(description: "the quote corpus is malformed: \(error.reason)")
    }
  }
}
