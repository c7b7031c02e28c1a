/// How messages are delimited on a byte stream.
public enum Framing: String, Sendable, CaseIterable {
  /// `Content-Length: N\r\n\r\n<body>`, the Language Server Protocol base protocol.
  case lsp
  /// One JSON text per line.
  case ndjson

  /// Appends `body` framed for the wire. LSP replies carry exactly one
  /// header, `Content-Length`, because some clients accept nothing else.
  @inlinable
  public func frame(_ body: some Collection<UInt8>, into output: inout [UInt8]) {
    switch self {
    case .lsp:
      output.append(contentsOf: "Content-Length: ".utf8)
      output.append(contentsOf: String(body.count).utf8)
      output.append(contentsOf: "\r\n\r\n".utf8)
      output.append(contentsOf: body)
    case .ndjson:
      output.append(contentsOf: body)
      output.append(UInt8(ascii: "\n"))
    }
  }
}
