/// A strict RFC 8259 parser: one JSON text, UTF-8, no extensions (no comments,
/// no trailing commas, no NaN, no leading zeros, no single quotes).
///
/// Recursion is bounded by `maxDepth`, so a hostile `[[[[…` is an error
/// rather than a stack overflow. Numbers keep their text (see `JSONNumber`).
public enum JSONParser {
  /// The default and the largest nesting depth a caller may configure; the
  /// limit keeps recursion in parsing, writing and deallocation shallow.
  public static let defaultMaxDepth = 128
  public static let maxDepthLimit = 10_000

  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONParseError) -> JSON
  {
    var cursor = Cursor(bytes: bytes, maxDepth: min(maxDepth, maxDepthLimit))
    cursor.skipWhitespace()
    let value = try cursor.parseValue(depth: 0)
    cursor.skipWhitespace()
    guard cursor.index == bytes.count else {
      throw JSONParseError(kind: .trailingData, offset: cursor.index)
    }
    return value
  }

  public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth)
    throws(JSONParseError) -> JSON
  {
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> JSON in try parse(buffer, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth)
    throws(JSONParseError) -> JSON
  {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }
}

extension JSONParser {
  /// The parse state: a position in a borrowed buffer.
  fileprivate struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
      self.bytes = bytes
      self.maxDepth = maxDepth
    }

    func fail(_ kind: JSONParseError.Kind, at offset: Int? = nil) -> JSONParseError {
      JSONParseError(kind: kind, offset: offset ?? index)
    }

    func unexpected() -> JSONParseError {
      index < bytes.count ? fail(.unexpectedByte(bytes[index])) : fail(.unexpectedEnd)
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
          index += 1
        default:
          return
        }
      }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
      guard index < bytes.count else { throw fail(.unexpectedEnd) }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
      case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try parseString())
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return .number(try parseNumber())
      default:
        throw unexpected()
      }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
      let count = literal.utf8CodeUnitCount
      let start = literal.utf8Start
      for offset in 0..<count {
        guard index + offset < bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
        guard bytes[index + offset] == start[offset] else {
          throw fail(.unexpectedByte(bytes[index + offset]), at: index + offset)
        }
      }
      index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
      guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth)) }
      index += 1  // {
      var object = JSONObject()
      skipWhitespace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      }
      // Room for a request's four members at once, instead of growing 1, 2, 4.
      object.reserveCapacity(4)
      while true {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
        index += 1
        skipWhitespace()
        object.append(key, try parseValue(depth: depth))
        skipWhitespace()
        guard index < bytes.count else { throw fail(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: ","):
          index += 1
          skipWhitespace()
        case UInt8(ascii: "}"):
          index += 1
          return .object(object)
        default:
          throw unexpected()
        }
      }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
      guard depth <= maxDepth else { throw fail(.tooDeep(limit: maxDepth)) }
      index += 1  // [
      var elements: [JSON] = []
      skipWhitespace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        elements.append(try parseValue(depth: depth))
        skipWhitespace()
        guard index < bytes.count else { throw fail(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: ","):
          index += 1
          skipWhitespace()
        case UInt8(ascii: "]"):
          index += 1
          return .array(elements)
        default:
          throw unexpected()
        }
      }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
      let start = index
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count else { throw fail(.invalidNumber, at: start) }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else if isDigit(bytes[index]) {
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
      } else {
        throw fail(.invalidNumber, at: start)
      }
      if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard index < bytes.count, isDigit(bytes[index]) else {
          throw fail(.invalidNumber, at: start)
        }
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
        index += 1
        if index < bytes.count
          && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
        {
          index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
          throw fail(.invalidNumber, at: start)
        }
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
      }
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      return JSONNumber(validatedText: text)
    }

    /// Parses a string starting at its opening quote. The common case — no
    /// escapes — becomes a String straight from the buffer.
    mutating func parseString() throws(JSONParseError) -> String {
      index += 1  // "
      let start = index
      var sawNonASCII = false
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
          index += 1
          return try makeString(slice, sawNonASCII: sawNonASCII, offset: start)
        }
        if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
        if byte < 0x20 { throw fail(.controlCharacterInString) }
        if byte >= 0x80 { sawNonASCII = true }
        index += 1
      }
      throw fail(.unexpectedEnd)
    }

    func makeString(_ slice: UnsafeBufferPointer<UInt8>, sawNonASCII: Bool, offset: Int)
      throws(JSONParseError) -> String
    {
      if !sawNonASCII { return String(decoding: slice, as: UTF8.self) }
      guard let string = String(validating: slice, as: UTF8.self) else {
        throw fail(.invalidUTF8, at: offset)
      }
      return string
    }

    /// The slow path: a string with escapes, decoded into a scratch buffer.
    mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
      var decoded: [UInt8] = []
      decoded.reserveCapacity(index - start + 16)
      decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
      var sawNonASCII = decoded.contains { $0 >= 0x80 }
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try makeString(buffer, sawNonASCII: sawNonASCII, offset: start)
          }
        case UInt8(ascii: "\\"):
          index += 1
          guard index < bytes.count else { throw fail(.unexpectedEnd) }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\""))
          case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\"))
          case UInt8(ascii: "/"): decoded.append(UInt8(ascii: "/"))
          case UInt8(ascii: "b"): decoded.append(0x08)
          case UInt8(ascii: "f"): decoded.append(0x0C)
          case UInt8(ascii: "n"): decoded.append(0x0A)
          case UInt8(ascii: "r"): decoded.append(0x0D)
          case UInt8(ascii: "t"): decoded.append(0x09)
          case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape()
            if scalar.value >= 0x80 { sawNonASCII = true }
            decoded.append(contentsOf: String(scalar).utf8)
          default:
            throw fail(.invalidEscape, at: index - 2)
          }
        default:
          if byte < 0x20 { throw fail(.controlCharacterInString) }
          if byte >= 0x80 { sawNonASCII = true }
          decoded.append(byte)
          index += 1
        }
      }
      throw fail(.unexpectedEnd)
    }

    /// Reads the hex digits after `\u`, and a following `\uDC00`-style low
    /// surrogate when the first is a high one. Unpaired surrogates are
    /// rejected: a Swift String cannot hold them, and silently replacing
    /// them would change what the client sent.
    mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
      let escapeStart = index - 2
      let unit = try readHex4()
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw fail(.loneSurrogate, at: escapeStart) }
        index += 2
        let low = try readHex4()
        guard low >= 0xDC00 && low <= 0xDFFF else { throw fail(.loneSurrogate, at: escapeStart) }
        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else {
          throw fail(.loneSurrogate, at: escapeStart)
        }
        return scalar
      }
      guard let scalar = Unicode.Scalar(UInt32(unit)) else {
        throw fail(.loneSurrogate, at: escapeStart)
      }
      return scalar
    }

    mutating func readHex4() throws(JSONParseError) -> UInt16 {
      guard index + 4 <= bytes.count else { throw fail(.unexpectedEnd) }
      var value: UInt16 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw fail(.invalidEscape)
        }
        value = value << 4 | UInt16(digit)
        index += 1
      }
      return value
    }
  }
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}
