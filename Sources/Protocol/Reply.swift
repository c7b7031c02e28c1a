/// The outcome of one request: what goes into its reply.
public enum Reply: Sendable {
  case result(JSON)
  /// A result written already, sent as it is.
  case encodedResult(EncodedJSON)
  case error(RPCError)

  /// The response to request `id`; an error's message in `locale`, which
  /// only an error asks for.
  public func write(
    id: RequestID, locale: @autoclosure () -> MessageLocale, into output: inout [UInt8]
  ) {
    switch self {
    case .result(let result): OutgoingMessage.response(id: id, result: result, into: &output)
    case .encodedResult(let result):
      OutgoingMessage.response(id: id, encoded: result, into: &output)
    case .error(let error):
      OutgoingMessage.error(id: id, error: error, locale: locale(), into: &output)
    }
  }
}
