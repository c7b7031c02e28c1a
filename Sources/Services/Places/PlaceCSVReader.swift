/// Reads the records of an RFC 4180 CSV text in place: comma separators,
/// fields in double quotes when they hold commas, quotes or line breaks (a
/// quote inside written twice), records ended by LF, CRLF or CR. A UTF-8 BOM
/// is skipped; blank lines are skipped. Lenient where the RFC is strict: a
/// quote inside an unquoted field, or text after a closing quote, is kept.
struct PlaceCSVReader {
  /// One record's place in the file.
  struct Record {
    /// The line the record starts on, from 1.
    let line: Int
    /// A quoted field ran to the end of the file; the fields are what was read.
    let isUnterminated: Bool
  }

  private let bytes: UnsafeRawBufferPointer
  /// Where the next record starts.
  private(set) var offset: Int
  /// The line at `offset`.
  private var line = 1
  /// The bytes of a quoted field with doubled quotes, unescaped.
  private var scratch: [UInt8] = []

  private static let comma = UInt8(ascii: ",")
  private static let quote = UInt8(ascii: "\"")
  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  /// Reads the next non-blank record into `fields`; nil at the end of the text.
  mutating func next(into fields: inout [String]) -> Record? {
    while offset < bytes.count {
      fields.removeAll(keepingCapacity: true)
      let startLine = line
      var sawQuote = false
      var isUnterminated = false
      while true {
        let (field, quoted, terminated) = readField()
        fields.append(field)
        sawQuote = sawQuote || quoted
        if !terminated {
          isUnterminated = true
          break
        }
        // At a comma: another field follows. At a line end or the end: done.
        if offset < bytes.count, bytes[offset] == Self.comma {
          offset += 1
          continue
        }
        skipLineEnd()
        break
      }
      if fields.count == 1, fields[0].isEmpty, !sawQuote { continue }  // a blank line
      return Record(line: startLine, isUnterminated: isUnterminated)
    }
    return nil
  }

  /// Reads one field, leaving `offset` at the comma, line end or end after
  /// it. `terminated` is false when a quoted field never closed.
  private mutating func readField() -> (field: String, quoted: Bool, terminated: Bool) {
    guard offset < bytes.count, bytes[offset] == Self.quote else {
      let start = offset
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == Self.comma || byte == Self.newline || byte == Self.carriageReturn { break }
        offset += 1
      }
      return (text(start..<offset), false, true)
    }
    offset += 1
    var start = offset
    var hasEscapes = false
    scratch.removeAll(keepingCapacity: true)
    while true {
      guard offset < bytes.count else {
        return (finishQuoted(start..<offset, hasEscapes), true, false)
      }
      let byte = bytes[offset]
      if byte == Self.newline {
        line += 1
      } else if byte == Self.carriageReturn,
        offset + 1 >= bytes.count || bytes[offset + 1] != Self.newline
      {
        line += 1
      }
      if byte != Self.quote {
        offset += 1
        continue
      }
      if offset + 1 < bytes.count, bytes[offset + 1] == Self.quote {
        // A doubled quote: keep one.
        hasEscapes = true
        scratch.append(contentsOf: bytes[start...offset])
        offset += 2
        start = offset
        continue
      }
      let quoted = finishQuoted(start..<offset, hasEscapes)
      offset += 1
      // Text after the closing quote, up to the separator, is kept.
      let rest = offset
      while offset < bytes.count {
        let next = bytes[offset]
        if next == Self.comma || next == Self.newline || next == Self.carriageReturn { break }
        offset += 1
      }
      return (rest == offset ? quoted : quoted + text(rest..<offset), true, true)
    }
  }

  private mutating func finishQuoted(_ tail: Range<Int>, _ hasEscapes: Bool) -> String {
    guard hasEscapes else { return text(tail) }
    scratch.append(contentsOf: bytes[tail])
    return String(decoding: scratch, as: UTF8.self)
  }

  private mutating func skipLineEnd() {
    guard offset < bytes.count else { return }
    if bytes[offset] == Self.carriageReturn { offset += 1 }
    if offset < bytes.count, bytes[offset] == Self.newline { offset += 1 }
    line += 1
  }

  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
