/// Which quotes `quotes/random` may return.
public struct QuoteFilter: Sendable, Hashable {
  /// A quote must have every one of these tags (compared case-insensitively).
  public var tags: [String]
  /// The author's name or slug ("Albert Einstein", "albert-einstein"), case-insensitively.
  public var author: String?
  /// Bounds on `Quote.length`, both inclusive.
  public var minLength: Int?
  public var maxLength: Int?

  public init(
    tags: [String] = [], author: String? = nil, minLength: Int? = nil, maxLength: Int? = nil
  ) {
    self.tags = tags
    self.author = author
    self.minLength = minLength
    self.maxLength = maxLength
  }

  public func matches(_ quote: Quote) -> Bool {
    if let minLength, quote.length < minLength { return false }
    if let maxLength, quote.length > maxLength { return false }
    if let author {
      let wanted = author.lowercased()
      guard quote.author.lowercased() == wanted || quote.authorSlug == wanted else { return false }
    }
    if !tags.isEmpty {
      let quoteTags = Set(quote.tags.map { $0.lowercased() })
      guard tags.allSatisfy({ quoteTags.contains($0.lowercased()) }) else { return false }
    }
    return true
  }

  /// The rules a wire-level check cannot see: lengths are not negative and
  /// `minLength` is not above `maxLength`.
  public func validate() throws(InvalidArgument) {
    if let minLength, minLength < 0 {
      throw InvalidArgument(field: "minLength", reason: "must not be negative")
    }
    if let maxLength, maxLength < 0 {
      throw InvalidArgument(field: "maxLength", reason: "must not be negative")
    }
    if let minLength, let maxLength, minLength > maxLength {
      throw InvalidArgument(field: "maxLength", reason: "must not be less than minLength")
    }
  }
}
