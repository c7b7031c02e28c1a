import Glibc

/// How messages are delimited on the pipes: LSP `Content-Length` headers, or one JSON text per
/// line. The daemon detects it from the first byte it reads and answers in kind.
enum Framing: String, CaseIterable, Sendable {
  case ndjson
  case lsp

  /// Headers longer than this are taken as garbage rather than waited for.
  private static let maxHeaderBytes = 1024

  /// Appends one message, framed.
  func append(_ body: String, to buffer: inout [UInt8]) {
    switch self {
    case .ndjson:
      buffer += body.utf8
      buffer.append(UInt8(ascii: "\n"))
    case .lsp:
      buffer += "Content-Length: \(body.utf8.count)\r\n\r\n".utf8
      buffer += body.utf8
    }
  }

  /// The first whole message in `bytes`: the range of its body and where the next message
  /// starts; nil while it is incomplete. Only the framing is read, never the JSON.
  func nextMessage(in bytes: UnsafeRawBufferPointer) throws -> (body: Range<Int>, next: Int)? {
    switch self {
    case .ndjson:
      var lineStart = 0
      while let newline = firstIndex(of: "\n", in: bytes, from: lineStart) {
        let lineEnd =
          newline > lineStart && bytes[newline - 1] == UInt8(ascii: "\r")
          ? newline - 1 : newline
        if lineEnd > lineStart { return (lineStart..<lineEnd, newline + 1) }
        lineStart = newline + 1  // A blank line between messages carries nothing.
      }
      return nil
    case .lsp:
      guard let headersEnd = firstIndex(of: "\r\n\r\n", in: bytes) else {
        if bytes.count > Self.maxHeaderBytes {
          throw BenchError.badFraming("no end of headers in \(Self.maxHeaderBytes) bytes")
        }
        return nil
      }
      guard let length = contentLength(in: bytes, headers: 0..<headersEnd) else {
        let headers = String(decoding: bytes[0..<headersEnd], as: UTF8.self)
        throw BenchError.badFraming("headers without a Content-Length: \(headers.debugDescription)")
      }
      let bodyStart = headersEnd + 4
      guard bytes.count - bodyStart >= length else { return nil }
      return (bodyStart..<bodyStart + length, bodyStart + length)
    }
  }
}

/// The value of the `Content-Length` header; header names are case-insensitive.
private func contentLength(in bytes: UnsafeRawBufferPointer, headers: Range<Int>) -> Int? {
  let name: StaticString = "content-length:"
  var lineStart = headers.lowerBound
  while lineStart < headers.upperBound {
    var lineEnd = lineStart
    while lineEnd < headers.upperBound && bytes[lineEnd] != UInt8(ascii: "\r") { lineEnd += 1 }
    // ORing 0x20 lowercases ASCII letters and leaves '-' and ':' as they are.
    if lineEnd - lineStart > name.utf8CodeUnitCount,
      (0..<name.utf8CodeUnitCount).allSatisfy({
        bytes[lineStart + $0] | 0x20 == name.utf8Start[$0]
      })
    {
      var index = lineStart + name.utf8CodeUnitCount
      while index < lineEnd && bytes[index] == UInt8(ascii: " ") { index += 1 }
      var value = 0
      var digits = 0
      while index < lineEnd, bytes[index] &- UInt8(ascii: "0") < 10, digits < 12 {
        value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        index += 1
        digits += 1
      }
      return digits > 0 ? value : nil
    }
    lineStart = lineEnd + 2
  }
  return nil
}
