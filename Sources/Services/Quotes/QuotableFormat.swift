import Protocol

/// Reads quotes in the JSON shape of the quotable API, which the embedded corpus
/// shares: `{_id, content, author, authorSlug?, tags, length?}`.
enum QuotableFormat {
  static func quote(_ json: JSON) throws(MalformedPayload) -> Quote {
    guard case .object(let object) = json else {
      throw MalformedPayload(reason: "a quote is \(json.typeName), not an object")
    }
    guard let id = (object["_id"] ?? object["id"])?.stringValue, !id.isEmpty else {
      throw MalformedPayload(reason: "a quote has no string _id")
    }
    guard let content = object["content"]?.stringValue, !content.isEmpty else {
      throw MalformedPayload(reason: "quote \(id) has no string content")
    }
    guard let author = object["author"]?.stringValue else {
      throw MalformedPayload(reason: "quote \(id) has no string author")
    }
    var tags: [String] = []
    if let tagsValue = object["tags"], !tagsValue.isNull {
      guard let array = tagsValue.arrayValue else {
        throw MalformedPayload(reason: "quote \(id) has tags that are not an array")
      }
      for tag in array {
        guard let tag = tag.stringValue else {
          throw MalformedPayload(reason: "quote \(id) has a tag that is not a string")
        }
        tags.append(tag)
      }
    }
    let length = object["length"]?.numberValue?.integralValue
    return Quote(
      id: id, content: content, author: author, authorSlug: object["authorSlug"]?.stringValue,
      tags: tags, length: length)
  }

  /// Each element of `json`, which must be an array of quotes.
  static func quotes(_ json: JSON) throws(MalformedPayload) -> [Quote] {
    guard let array = json.arrayValue else {
      throw MalformedPayload(reason: "expected an array of quotes, got \(json.typeName)")
    }
    var quotes: [Quote] = []
    quotes.reserveCapacity(array.count)
    for element in array { quotes.append(try quote(element)) }
    return quotes
  }
}
