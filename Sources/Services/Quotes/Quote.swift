import Protocol

/// A quote as the quote app shows it.
public struct Quote: Sendable, Hashable {
  public let id: String
  public let content: String
  public let author: String
  /// The author's name as quotable spells it in URLs ("albert-einstein"). An author
  /// filter matches it as well as the name; it is not part of the wire shape.
  public let authorSlug: String
  public let tags: [String]
  /// The content's length in Unicode scalars, the unit of the corpus and of the
  /// `minLength` and `maxLength` filters.
  public let length: Int

  public init(
    id: String, content: String, author: String, authorSlug: String? = nil, tags: [String],
    length: Int? = nil
  ) {
    self.id = id
    self.content = content
    self.author = author
    self.authorSlug = authorSlug ?? Self.slug(author)
    self.tags = tags
    self.length = length ?? content.unicodeScalars.count
  }

  /// The wire shape: `{id, content, author, tags, length}`.
  public var json: JSON {
    [
      "id": JSON(id), "content": JSON(content), "author": JSON(author),
      "tags": .array(tags.map(JSON.string)), "length": JSON(length),
    ]
  }

  /// quotable's slug of a name: lowercase letters and digits, each run of
  /// anything else one hyphen ("Martin Luther King Jr." → "martin-luther-king-jr").
  static func slug(_ name: String) -> String {
    var slug = ""
    var pendingHyphen = false
    for character in name.lowercased() {
      if character.isLetter || character.isNumber {
        if pendingHyphen && !slug.isEmpty { slug.append("-") }
        slug.append(character)
        pendingHyphen = false
      } else {
        pendingHyphen = true
      }
    }
    return slug
  }
}
