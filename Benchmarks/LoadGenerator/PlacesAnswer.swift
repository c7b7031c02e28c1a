/// What a search answered, as the contenders are compared: how many places
/// matched, and the ids of the first page in order.
struct PlacesAnswer: Equatable {
  var totalCount: Int
  var ids: [String]

  init(totalCount: Int, ids: [String]) {
    self.totalCount = totalCount
    self.ids = ids
  }

  /// From a `places/search` reply: `"totalCount":N` and each item's
  /// `"id":"…"` (the reply's own id is a number, so it never matches).
  init(reply: String) throws {
    guard let total = reply.firstRange(of: #""totalCount":"#),
      let count = Int(reply[total.upperBound...].prefix { $0.isNumber })
    else { throw BenchError.wrongReplies("no totalCount in \(reply.prefix(300))") }
    var ids: [String] = []
    var rest = reply[...]
    while let start = rest.firstRange(of: #""id":""#) {
      let tail = rest[start.upperBound...]
      guard let end = tail.firstIndex(of: "\"") else { break }
      ids.append(String(tail[..<end]))
      rest = tail[end...]
    }
    self.init(totalCount: count, ids: ids)
  }
}
