/// Encodes the messages the daemon sends as JSON text bodies (no framing).
///
/// Members are written in a fixed order (`jsonrpc`, `id`, then `result` or
/// `error`) straight into bytes, without building an intermediate object.
public enum OutgoingMessage {
  public static func response(id: RequestID, result: JSON, into output: inout [UInt8]) {
    output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
    JSONWriter.write(id.json, into: &output)
    output.append(contentsOf: #","result":"#.utf8)
    JSONWriter.write(result, into: &output)
    output.append(UInt8(ascii: "}"))
  }

  /// A response whose result was written already (`EncodedJSON`).
  public static func response(
    id: RequestID, encoded result: EncodedJSON, into output: inout [UInt8]
  ) {
    output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
    JSONWriter.write(id.json, into: &output)
    output.append(contentsOf: #","result":"#.utf8)
    output.append(contentsOf: result.bytes)
    output.append(UInt8(ascii: "}"))
  }

  /// An error response, its message in `locale`.
  public static func error(
    id: RequestID, error: RPCError, locale: MessageLocale, into output: inout [UInt8]
  ) {
    output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
    JSONWriter.write(id.json, into: &output)
    output.append(contentsOf: #","error":"#.utf8)
    JSONWriter.write(error.json(in: locale), into: &output)
    output.append(UInt8(ascii: "}"))
  }

  public static func notification(method: String, params: JSON?, into output: inout [UInt8]) {
    output.append(contentsOf: #"{"jsonrpc":"2.0","method":"#.utf8)
    JSONWriter.writeString(method, into: &output)
    if let params {
      output.append(contentsOf: #","params":"#.utf8)
      JSONWriter.write(params, into: &output)
    }
    output.append(UInt8(ascii: "}"))
  }

  /// The body of a notification.
  public static func notification(method: String, params: JSON?) -> [UInt8] {
    var body: [UInt8] = []
    notification(method: method, params: params, into: &body)
    return body
  }
}
