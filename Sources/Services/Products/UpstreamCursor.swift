import Protocol

/// The upstream's cursor, wrapped so that it is bound to the query it was
/// issued for, as the embedded catalog's cursors are: a cursor used with
/// another query, or text that is no cursor at all, is an invalid argument
/// rather than an upstream error.
struct UpstreamCursor: Hashable {
  /// The cursor the upstream issued.
  let upstream: String
  /// `ProductCursor.filterDigest` of the query it belongs to.
  let filter: UInt64

  init(upstream: String, filter: UInt64) {
    self.upstream = upstream
    self.filter = filter
  }

  var encoded: String {
    let json: JSON = ["u": JSON(upstream), "f": JSON(String(filter, radix: 16))]
    return Base64URL.encode(json.serialized())
  }

  /// - Throws: `InvalidArgument` (field `cursor`) unless `text` is a cursor of this filter.
  init(decoding text: String, filter: UInt64) throws(InvalidArgument) {
    guard let bytes = Base64URL.decode(text), let json = try? JSONParser.parse(bytes),
      let upstream = json["u"]?.stringValue,
      let digest = json["f"]?.stringValue.flatMap({ UInt64($0, radix: 16) })
    else { throw InvalidArgument(field: "cursor", reason: "not a cursor of this list") }
    guard digest == filter else {
      throw InvalidArgument(
        field: "cursor", reason: "belongs to another query; start again without a cursor")
    }
    self.upstream = upstream
    self.filter = filter
  }
}
