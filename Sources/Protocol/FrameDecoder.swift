#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a byte stream into message bodies, whatever the chunking of the reads.
///
/// Feed it with `append`, then call `next` until it returns `nil`. It never
/// holds more than one message (at most `maxMessageBytes`) plus one read:
/// an oversized message is skipped as it streams past, and after a framing
/// error the decoder drops bytes until the next `Content-Length` header
/// (LSP) or the next line (NDJSON), so one bad message costs one error reply.
public struct FrameDecoder: Sendable {
  public enum Event: Equatable, Sendable {
    /// A message body: these bytes of `buffer`, valid until the next `append`.
    case message(Range<Int>)
    /// A framing failure, answered with -32700 and `"id": null`.
    case error(reason: String)
  }

  private enum State: Sendable {
    case detecting
    case headers(HeaderBlock)
    /// Dropping the rest of an overlong header line (an unknown header) up to its newline.
    case discardingHeaderLine(HeaderBlock)
    case body(length: Int)
    case skipping(remaining: Int)
    case resyncing
    case line
    case discardingLine
  }

  /// What the header lines read so far of one LSP message said.
  private struct HeaderBlock: Sendable {
    var contentLength: Int?
    var problem: String?
    var sawHeader = false
  }

  /// The framing in use: fixed, or detected from the first non-blank byte; `nil` until then.
  public private(set) var framing: Framing?
  /// The largest body accepted; larger ones are skipped with an error.
  public let maxMessageBytes: Int
  /// Bytes received and not yet consumed start at `position`.
  public private(set) var buffer: [UInt8] = []
  /// The first byte of `buffer` not yet consumed.
  private var position = 0
  /// Where the decoder is in the grammar.
  private var state: State

  /// A header block longer than this is not a header block.
  static let maxHeaderBytes = 8192
  /// Declared lengths above this are taken as garbage to resynchronise from,
  /// not as a body to skip, so a bogus huge length cannot swallow the stream.
  static let maxSkippableBytes = Int(Int32.max)

  public init(mode: FramingMode, maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
    switch mode {
    case .auto:
      state = .detecting
    case .fixed(let framing):
      self.framing = framing
      state = framing == .lsp ? .headers(HeaderBlock()) : .line
    }
  }

  /// Bytes held and not yet consumed.
  public var pendingByteCount: Int { buffer.count - position }

  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if position > 0 && position >= buffer.count / 2 {
      buffer.removeSubrange(0..<position)
      position = 0
    }
    buffer.append(contentsOf: bytes)
  }

  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// The next complete message or error, or `nil` when more bytes are needed.
  public mutating func next() -> Event? {
    while true {
      switch state {
      case .detecting:
        guard detectFraming() else { return nil }
      case .headers(let block):
        if let event = readHeaders(block) { return event }
        if case .headers = state { return nil }
      case .discardingHeaderLine(let block):
        guard let newline = indexOfNewline(from: position) else {
          position = buffer.count
          return nil
        }
        position = newline + 1
        state = .headers(block)
      case .body(let length):
        guard buffer.count - position >= length else { return nil }
        let range = position..<position + length
        position += length
        state = .headers(HeaderBlock())
        return .message(range)
      case .skipping(let remaining):
        let skipped = min(remaining, buffer.count - position)
        position += skipped
        guard remaining - skipped == 0 else {
          state = .skipping(remaining: remaining - skipped)
          return nil
        }
        state = .headers(HeaderBlock())
      case .resyncing:
        guard resynchronise() else { return nil }
      case .line:
        guard let newline = indexOfNewline(from: position) else {
          guard buffer.count - position > maxMessageBytes else { return nil }
          position = buffer.count
          state = .discardingLine
          return .error(reason: tooLarge(nil))
        }
        var end = newline
        if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let range = position..<end
        position = newline + 1
        if isBlank(range) { continue }
        if range.count > maxMessageBytes { return .error(reason: tooLarge(range.count)) }
        return .message(range)
      case .discardingLine:
        guard let newline = indexOfNewline(from: position) else {
          position = buffer.count
          return nil
        }
        position = newline + 1
        state = .line
      }
    }
  }

  /// At end of input: the last NDJSON line when it had no final newline (as
  /// `printf '{…}' | catalogd` sends it), or an error for a truncated LSP message.
  public mutating func finish() -> Event? {
    defer { position = buffer.count }
    switch state {
    case .line:
      let range = position..<buffer.count
      guard !isBlank(range) else { return nil }
      return range.count > maxMessageBytes ? .error(reason: tooLarge(range.count)) : .message(range)
    case .headers, .discardingHeaderLine, .body:
      guard !isBlank(position..<buffer.count) else { return nil }
      return .error(reason: "end of input inside a message")
    case .detecting:
      guard !isBlank(position..<buffer.count) else { return nil }
      framing = .ndjson
      state = .line
      return finish()
    case .skipping, .resyncing, .discardingLine:
      return nil
    }
  }

  // MARK: - Detection

  /// Decides the framing from the first non-blank bytes: a header name
  /// followed by `:` means LSP, anything else (`{`, `[`, a digit…) NDJSON.
  private mutating func detectFraming() -> Bool {
    while position < buffer.count && (isWhitespace(buffer[position]) || isBOMByte(buffer[position]))
    {
      position += 1
    }
    guard position < buffer.count else { return false }
    var index = position
    while index < buffer.count && isTokenByte(buffer[index]) { index += 1 }
    if index == buffer.count && index - position < 64 { return false }
    let isHeader = index > position && index < buffer.count && buffer[index] == UInt8(ascii: ":")
    framing = isHeader ? .lsp : .ndjson
    state = isHeader ? .headers(HeaderBlock()) : .line
    return true
  }

  // MARK: - LSP headers

  /// Reads complete header lines, consuming each as it goes, so a header
  /// block never has to be held whole. Returns an event, or `nil` when the
  /// state changed (go on) or more bytes are needed (state still `.headers`).
  private mutating func readHeaders(_ start: HeaderBlock) -> Event? {
    var block = start
    while true {
      guard let newline = indexOfNewline(from: position) else {
        guard buffer.count - position > Self.maxHeaderBytes else {
          state = .headers(block)
          return nil
        }
        // An overlong line: tolerated when it is an unknown header, dropped as it streams.
        guard let colon = headerNameEnd(position..<(position + Self.maxHeaderBytes)),
          !isContentLength(position..<colon)
        else {
          position += 1
          return failAndResync("malformed header line")
        }
        block.sawHeader = true
        position = buffer.count
        state = .discardingHeaderLine(block)
        return nil
      }
      var end = newline
      if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end == position {
        position = newline + 1
        // Blank lines between messages are tolerated, as most servers do.
        if block.sawHeader { return endOfHeaders(block) }
        continue
      }
      guard let colon = headerNameEnd(position..<end) else {
        position += 1
        return failAndResync("malformed header line")
      }
      block.sawHeader = true
      if isContentLength(position..<colon) {
        let value = buffer[(colon + 1)..<end].drop(while: isWhitespace).reversed()
          .drop(while: isWhitespace).reversed()
        if let length = parseLength(Array(value)) {
          if let known = block.contentLength, known != length {
            block.problem = "conflicting Content-Length headers"
          }
          block.contentLength = length
        } else {
          block.problem = "invalid Content-Length value"
        }
      }
      position = newline + 1
    }
  }

  /// The end of a header name followed by `:` in `range`, or `nil` when the line is no header.
  private func headerNameEnd(_ range: Range<Int>) -> Int? {
    guard let colon = buffer[range].firstIndex(of: UInt8(ascii: ":")), colon > range.lowerBound,
      buffer[range.lowerBound..<colon].allSatisfy(isTokenByte)
    else { return nil }
    return colon
  }

  private mutating func endOfHeaders(_ block: HeaderBlock) -> Event? {
    if let problem = block.problem { return failAndResync(problem) }
    guard let contentLength = block.contentLength else {
      return failAndResync("missing Content-Length header")
    }
    guard contentLength <= maxMessageBytes else {
      guard contentLength <= Self.maxSkippableBytes else {
        return failAndResync(tooLarge(contentLength))
      }
      state = .skipping(remaining: contentLength)
      return .error(reason: tooLarge(contentLength))
    }
    state = .body(length: contentLength)
    return nil
  }

  private mutating func failAndResync(_ reason: String) -> Event {
    state = .resyncing
    return .error(reason: reason)
  }

  /// Drops bytes up to the next `Content-Length` (any case), which starts the next message.
  private mutating func resynchronise() -> Bool {
    let needle = Array("content-length".utf8)
    var index = position
    while index + needle.count <= buffer.count {
      if buffer[index] | 0x20 == needle[0] && matchesLowercased(needle, at: index) {
        position = index
        state = .headers(HeaderBlock())
        return true
      }
      index += 1
    }
    // Keep a tail that may be the start of a header split across reads.
    position = max(position, buffer.count - needle.count + 1)
    return false
  }

  private func isContentLength(_ range: Range<Int>) -> Bool {
    range.count == 14 && matchesLowercased(Array("content-length".utf8), at: range.lowerBound)
  }

  private func matchesLowercased(_ needle: [UInt8], at index: Int) -> Bool {
    guard index + needle.count <= buffer.count else { return false }
    for offset in 0..<needle.count where buffer[index + offset] | 0x20 != needle[offset] {
      // `| 0x20` lowercases letters; `-` (0x2D) is unchanged by it.
      return false
    }
    return true
  }

  /// A decimal length; `nil` for signs, blanks or other characters, and
  /// `Int.max` for a number too large to represent.
  private func parseLength(_ digits: [UInt8]) -> Int? {
    guard !digits.isEmpty, digits.allSatisfy(isDigitByte) else { return nil }
    var value = 0
    for digit in digits {
      let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = shifted.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
      if overflowA || overflowB { return Int.max }
      value = sum
    }
    return value
  }

  private func tooLarge(_ size: Int?) -> String {
    guard let size, size != Int.max else {
      return "message exceeds the limit of \(maxMessageBytes) bytes"
    }
    return "message of \(size) bytes exceeds the limit of \(maxMessageBytes) bytes"
  }

  // MARK: - Bytes

  private func indexOfNewline(from start: Int) -> Int? {
    guard start < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { bytes -> Int? in
      guard let base = bytes.baseAddress,
        let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
      else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
  }

  private func isBlank(_ range: Range<Int>) -> Bool {
    buffer[range].allSatisfy(isWhitespace)
  }
}

private func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// The bytes of a UTF-8 byte order mark, skipped before the first message.
private func isBOMByte(_ byte: UInt8) -> Bool {
  byte == 0xEF || byte == 0xBB || byte == 0xBF
}

private func isDigitByte(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// A character of an HTTP header name (RFC 9110 token), restricted to the
/// ones header names use in practice.
private func isTokenByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
    true
  default:
    false
  }
}
