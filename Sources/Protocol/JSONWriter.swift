/// Writes JSON values as compact UTF-8 text, straight into a byte buffer
/// (the text writers into any `JSONOutput`).
///
/// Non-ASCII characters are written as UTF-8, not escaped; control
/// characters, quotes and backslashes are escaped as RFC 8259 requires.
public enum JSONWriter {
  public static func write(_ value: JSON, into output: inout [UInt8]) {
    switch value {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let flag): output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
    case .number(let number): output.append(contentsOf: number.text.utf8)
    case .string(let string): writeString(string, into: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        write(element, into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      for (offset, member) in object.members.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        writeString(member.key, into: &output)
        output.append(UInt8(ascii: ":"))
        write(member.value, into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Writes `value` for people to read: each member and element on a line
  /// of its own, indented by two spaces a level (as Python's `json.dumps(indent=2)`).
  public static func writeIndented(_ value: JSON, level: Int = 0, into output: inout [UInt8]) {
    func newline(_ level: Int) {
      output.append(UInt8(ascii: "\n"))
      output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
    switch value {
    case .array(let elements) where !elements.isEmpty:
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(level + 1)
        writeIndented(element, level: level + 1, into: &output)
      }
      newline(level)
      output.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      output.append(UInt8(ascii: "{"))
      for (offset, member) in object.members.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(level + 1)
        writeString(member.key, into: &output)
        output.append(contentsOf: ": ".utf8)
        writeIndented(member.value, level: level + 1, into: &output)
      }
      newline(level)
      output.append(UInt8(ascii: "}"))
    default:
      write(value, into: &output)
    }
  }

  /// `value` as a JSON number, in decimal digits, without making a string of it.
  @inlinable
  public static func writeInteger<Output: JSONOutput & ~Copyable>(
    _ value: Int, into output: inout Output
  ) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // Room for the 20 digits of the largest magnitude, typed as bytes: a
    // slice of raw bytes would be appended one byte at a time.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      output.append(bytes: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// Writes a literal's bytes as they are, copied straight from the binary
  /// (a `static let` array would be retained and released at each use).
  @inlinable
  public static func writeLiteral<Output: JSONOutput & ~Copyable>(
    _ literal: StaticString, into output: inout Output
  ) {
    literal.withUTF8Buffer { output.append(bytes: $0) }
  }

  /// `value` as `JSONNumber(value)` spells it, without the `JSONNumber`:
  /// an integral value (below 10¹⁵) in its digits, another finite one in
  /// its shortest round-tripping form, a non-finite one as `0`.
  public static func writeNumber(_ value: Double, into output: inout [UInt8]) {
    guard value.isFinite else {
      output.append(UInt8(ascii: "0"))
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      writeInteger(Int(value), into: &output)
    } else {
      output.append(contentsOf: value.description.utf8)
    }
  }

  @inlinable
  public static func writeString<Output: JSONOutput & ~Copyable>(
    _ string: String, into output: inout Output
  ) {
    output.append(UInt8(ascii: "\""))
    writeContents(string, into: &output)
    output.append(UInt8(ascii: "\""))
  }

  /// Writes what goes between a JSON string's quotes for `string`.
  @inlinable
  static func writeContents<Output: JSONOutput & ~Copyable>(
    _ string: String, into output: inout Output
  ) {
    var string = string
    string.withUTF8 { writeEscaped($0, into: &output) }
  }

  /// Writes UTF-8 text held outside a `String` (a column SQLite returned) as
  /// a JSON string, without making a `String` of it. Invalid UTF-8 is
  /// repaired as `String(decoding:as:)` repairs it, so the text written is
  /// the same as through `writeString`.
  @inlinable
  public static func writeString<Output: JSONOutput & ~Copyable>(
    utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout Output
  ) {
    output.append(UInt8(ascii: "\""))
    writeContents(utf8: bytes, into: &output)
    output.append(UInt8(ascii: "\""))
  }

  /// Writes what goes between a JSON string's quotes for the UTF-8 text
  /// `bytes`, as `writeString(utf8:)` does: for a string put together from
  /// parts (a URL from a prefix that needs no escape and a column's text).
  ///
  /// One pass both checks the text and finds what needs escaping (a row of
  /// places is mostly such text), copying the runs between escapes as they
  /// are; eight bytes at a time while they are ASCII that needs none. Text
  /// found invalid is taken back and written again, repaired.
  @inlinable
  public static func writeContents<Output: JSONOutput & ~Copyable>(
    utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout Output
  ) {
    let start = output.count
    let count = bytes.count
    var runStart = 0
    var index = 0
    while index < count {
      if let base = bytes.baseAddress {
        while count - index >= 8,
          isPlainASCII(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        {
          index += 8
        }
        guard index < count else { break }
      }
      let byte = bytes[index]
      if byte >= 0x80 {
        // A run of non-ASCII text (a word in Korean) sequence after sequence,
        // without looking for eight ASCII bytes before each.
        repeat {
          guard let length = UTF8Validation.sequenceLength(bytes, at: index) else {
            output.removeAll(from: start)
            writeContents(String(decoding: bytes, as: UTF8.self), into: &output)
            return
          }
          index += length
        } while index < count && bytes[index] >= 0x80
        continue
      }
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      writeEscape(byte, into: &output)
      index += 1
      runStart = index
    }
    output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
  }

  /// Whether eight bytes are all ASCII with none to escape.
  @inlinable @inline(__always)
  static func isPlainASCII(_ word: UInt64) -> Bool {
    (word | escapeBits(word)) & highBits == 0
  }

  /// Whether any of the eight bytes in `word` is a control character, a
  /// quote or a backslash.
  @inlinable @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    escapeBits(word) & highBits != 0
  }

  @inlinable
  static var highBits: UInt64 { 0x8080_8080_8080_8080 }

  /// Bits whose top bit of some byte is set when one of the bytes is below
  /// 0x20, a quote or a backslash: the classic tests for a byte below n,
  /// `(w - n·0x01…) & ~w & 0x80…`, and for a zero byte after an exclusive or
  /// ("Bit Twiddling Hacks"; exact for "any byte", not for which).
  @inlinable @inline(__always)
  static func escapeBits(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
    let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
    return (word &- ones &* 0x20) & ~word | (quotes &- ones) & ~quotes
      | (backslashes &- ones) & ~backslashes
  }

  /// Writes valid UTF-8 as what goes between a JSON string's quotes.
  @inlinable
  static func writeEscaped<Output: JSONOutput & ~Copyable>(
    _ bytes: UnsafeBufferPointer<UInt8>, into output: inout Output
  ) {
    var runStart = 0
    var index = 0
    while index < bytes.count {
      if bytes.count - index >= 8,
        !needsEscape(
          UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: index, as: UInt64.self))
      {
        index += 8
        continue
      }
      let byte = bytes[index]
      index += 1
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index - 1]))
      runStart = index
      writeEscape(byte, into: &output)
    }
    output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
  }

  /// The escape of a control character, a quote or a backslash.
  @inlinable
  static func writeEscape<Output: JSONOutput & ~Copyable>(_ byte: UInt8, into output: inout Output)
  {
    output.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    case 0x0A: output.append(UInt8(ascii: "n"))
    case 0x0D: output.append(UInt8(ascii: "r"))
    case 0x09: output.append(UInt8(ascii: "t"))
    default:
      output.append(UInt8(ascii: "u"))
      output.append(UInt8(ascii: "0"))
      output.append(UInt8(ascii: "0"))
      output.append(hexDigit(byte >> 4))
      output.append(hexDigit(byte & 0x0F))
    }
  }

  @inlinable
  static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}

extension JSON {
  /// The compact UTF-8 text of this value.
  public func serialized() -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    JSONWriter.write(self, into: &output)
    return output
  }
}
