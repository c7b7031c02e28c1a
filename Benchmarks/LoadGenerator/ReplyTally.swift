/// What came back for requests with ids `ids`, tallied without decoding JSON: a reply is found
/// by its `"id":` key and checked for an `"error"` member, and a bitmap of ids proves that every
/// request got exactly one reply, in whatever order the daemon sent them.
struct ReplyTally {
  let ids: ClosedRange<Int>
  /// One bit per id in `ids`, set when its reply is seen.
  private var seen: [UInt64]
  /// Messages with an id, whatever it is: what the read loop counts to know it is done.
  private(set) var answered = 0
  /// Ids in `ids` answered at least once.
  private(set) var distinct = 0
  /// Replies carrying an error.
  private(set) var errors = 0
  /// Replies to an id that was already answered.
  private(set) var duplicates = 0
  /// Replies whose id is not a number in `ids` (such as `null`).
  private(set) var strays = 0
  /// Messages without an id: notifications, which are allowed and ignored.
  private(set) var notifications = 0
  /// The first error reply, to show why.
  private(set) var firstError: String?

  init(ids: ClosedRange<Int>) {
    self.ids = ids
    seen = Array(repeating: 0, count: (ids.count + 63) / 64)
  }

  mutating func record(_ body: UnsafeRawBufferPointer) {
    guard let key = firstIndex(of: #""id":"#, in: body) else {
      notifications += 1
      return
    }
    answered += 1
    var index = key + 5
    while index < body.count && body[index] == UInt8(ascii: " ") { index += 1 }
    var id = 0
    var digits = 0
    while index < body.count, body[index] &- UInt8(ascii: "0") < 10, digits < 18 {
      id = id * 10 + Int(body[index] &- UInt8(ascii: "0"))
      index += 1
      digits += 1
    }
    // A reply is a result or an error. When `"result"` follows the id, as the daemon writes it,
    // that settles it without searching the rest; any other order is searched for `"error"`.
    let resultNext = occurs(#","result":"#, in: body, at: index)
    if !resultNext && firstIndex(of: #""error""#, in: body) != nil {
      errors += 1
      if firstError == nil { firstError = String(decoding: body, as: UTF8.self) }
    }
    guard digits > 0, ids.contains(id) else {
      strays += 1
      return
    }
    let bit = id - ids.lowerBound
    let mask = UInt64(1) << UInt64(bit & 63)
    if seen[bit >> 6] & mask != 0 {
      duplicates += 1
    } else {
      seen[bit >> 6] |= mask
      distinct += 1
    }
  }

  /// Throws unless every id got exactly one reply and none was an error.
  func verify() throws {
    guard distinct != ids.count || errors != 0 || duplicates != 0 || strays != 0 else { return }
    var summary =
      "\(distinct) of \(ids.count) requests answered, \(errors) errors, "
      + "\(duplicates) duplicates, \(strays) unexpected ids"
    if let firstError { summary += "; first error: \(firstError)" }
    throw BenchError.wrongReplies(summary)
  }
}
