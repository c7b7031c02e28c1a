import Protocol

/// What a forwarder reads of the messages it carries: request and response
/// ids, and the few methods that change what it must do (`shutdown`,
/// `exit`, `initialize`'s locale). The rest of each body is skipped over,
/// never built into values, so a large result costs a scan of a few bytes:
/// a response's `id` comes before its `result`.
///
/// Bodies are not validated: one that is not JSON may yield an id the
/// daemon will answer with `"id": null` instead. The cost is at most one
/// needless error reply, and only if the daemon then dies.
struct Envelopes {
  /// The ids of the requests (a `method` and an `id`), in order.
  var requestIDs: [RequestID] = []
  /// The ids of the responses (an `id` and a `result` or `error`, no `method`), in order.
  var responseIDs: [RequestID] = []
  /// A `shutdown` request was among the messages.
  var shutdownRequested = false
  /// An `exit` notification was among the messages.
  var exitNotified = false
  /// The `locale` param of an `initialize` request among the messages.
  var locale: String?

  var isEmpty: Bool {
    requestIDs.isEmpty && responseIDs.isEmpty && !shutdownRequested && !exitNotified
      && locale == nil
  }

  /// Forgets what was read, keeping the arrays' storage for the next run of messages.
  mutating func removeAll() {
    requestIDs.removeAll(keepingCapacity: true)
    responseIDs.removeAll(keepingCapacity: true)
    shutdownRequested = false
    exitNotified = false
    locale = nil
  }

  /// Reads one message body: an object, or a batch (an array) of them.
  mutating func add(_ body: UnsafeBufferPointer<UInt8>) {
    var reader = Reader(bytes: body)
    reader.skipWhitespace()
    switch reader.peek() {
    case UInt8(ascii: "{"):
      // Alone in its body, an object may be left as soon as what it is is known.
      _ = readObject(&reader, stopEarly: true)
    case UInt8(ascii: "["):
      reader.index += 1
      while true {
        reader.skipWhitespace()
        switch reader.peek() {
        case UInt8(ascii: "{"):
          guard readObject(&reader, stopEarly: false) else { return }
        case UInt8(ascii: "]"), nil:
          return
        default:
          guard reader.skipValue() else { return }
        }
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: ",") else { return }
        reader.index += 1
      }
    default:
      return
    }
  }

  /// Reads the object at the reader and records what it is; false when it
  /// is malformed (the rest of a batch is then not read).
  private mutating func readObject(_ reader: inout Reader, stopEarly: Bool) -> Bool {
    var id: Range<Int>?
    var method: Range<Int>?
    var params: Range<Int>?
    var hasOutcome = false
    reader.index += 1  // {
    defer { record(reader.bytes, id: id, method: method, params: params, hasOutcome: hasOutcome) }
    while true {
      reader.skipWhitespace()
      switch reader.peek() {
      case UInt8(ascii: "}"):
        reader.index += 1
        return true
      case UInt8(ascii: "\""):
        break
      default:
        return false
      }
      let keyStart = reader.index + 1
      guard reader.skipString() else { return false }
      let key = keyStart..<(reader.index - 1)
      reader.skipWhitespace()
      guard reader.peek() == UInt8(ascii: ":") else { return false }
      reader.index += 1
      reader.skipWhitespace()
      if reader.matches(key, "result") || reader.matches(key, "error") {
        hasOutcome = true
        // A response, known before its result (perhaps megabytes) is read.
        if stopEarly && id != nil { return true }
      }
      let valueStart = reader.index
      guard reader.skipValue() else { return false }
      let value = valueStart..<reader.index
      if reader.matches(key, "id") {
        id = value
      } else if reader.matches(key, "method") {
        method = value
      } else if reader.matches(key, "params") {
        params = value
      }
      // Known now: a response, or a request that is not `initialize` (whose params are read).
      if stopEarly, id != nil {
        if hasOutcome { return true }
        if let method, !reader.matches(method, #""initialize""#) { return true }
      }
      reader.skipWhitespace()
      switch reader.peek() {
      case UInt8(ascii: ","): reader.index += 1
      case UInt8(ascii: "}"):
        reader.index += 1
        return true
      default: return false
      }
    }
  }

  private mutating func record(
    _ bytes: UnsafeBufferPointer<UInt8>, id: Range<Int>?, method: Range<Int>?,
    params: Range<Int>?, hasOutcome: Bool
  ) {
    let reader = Reader(bytes: bytes)
    if let method {
      if let id {
        guard let requestID = Self.requestID(bytes, id) else { return }
        requestIDs.append(requestID)
        if reader.matches(method, #""shutdown""#) { shutdownRequested = true }
        if reader.matches(method, #""initialize""#), let params,
          // Not JSON, or no locale: the daemon's default stands.
          let json = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[params]))
        {
          locale = json["locale"]?.stringValue
        }
      } else if reader.matches(method, #""exit""#) {
        exitNotified = true
      }
    } else if let id, hasOutcome, let responseID = Self.requestID(bytes, id) {
      responseIDs.append(responseID)
    }
  }

  /// The id written in `range`, as the daemon will echo it: strings
  /// decoded, numbers kept as text. Nil for a value that is no valid id.
  static func requestID(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> RequestID? {
    guard let first = range.first.map({ bytes[$0] }) else { return nil }
    switch first {
    case UInt8(ascii: "\""):
      guard range.count >= 2 else { return nil }
      let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
      // Plain ASCII needs no decoding; escapes and UTF-8 go through the parser.
      if bytes[inner].allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) {
        return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[inner]), as: UTF8.self))
      }
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if let integer = canonicalInteger(bytes[range]) { return .number(JSONNumber(integer)) }
    case UInt8(ascii: "n"):
      return Reader(bytes: bytes).matches(range, "null") ? .null : nil
    default:
      return nil
    }
    // Not JSON: no id the daemon can echo.
    guard let json = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[range])) else {
      return nil
    }
    return RequestID(json)
  }

  /// The integer an id such as `42` or `-7` is, when `JSONNumber` writes it
  /// back with the same text; nil for `007`, `-0`, `1.0`, `1e3` or a very large one.
  private static func canonicalInteger(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
    let negative = digits.first == UInt8(ascii: "-")
    let magnitude = negative ? digits.dropFirst() : digits[...]
    guard let lead = magnitude.first, magnitude.count <= 18,
      lead != UInt8(ascii: "0") || magnitude.count == 1, !(negative && lead == UInt8(ascii: "0"))
    else { return nil }
    var value = 0
    for digit in magnitude {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return negative ? -value : value
  }
}

/// A position in a borrowed body, with the few skips the envelope reader needs.
private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Skips the string starting at its opening quote; false when it does not end.
  mutating func skipString() -> Bool {
    index += 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        return true
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
    return false
  }

  /// Skips one value of any kind without building it; false when it does not end.
  mutating func skipValue() -> Bool {
    guard let first = peek() else { return false }
    switch first {
    case UInt8(ascii: "\""):
      return skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            index += 1
            return true
          }
        default: break
        }
        index += 1
      }
      return false
    default:
      // A number, true, false or null: up to the next delimiter.
      let start = index
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
          return index > start
        default: index += 1
        }
      }
      return index > start
    }
  }

  /// Whether the bytes in `range` are exactly `text`.
  func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount, range.upperBound <= bytes.count else {
      return false
    }
    let expected = text.utf8Start
    for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] {
      return false
    }
    return true
  }
}
