/// A JSON-RPC error object: a code from the contract, one short sentence a UI
/// can show as is (in the session's language, saying what to do), and
/// machine-readable detail in `data`.
public struct RPCError: Error, Sendable, Hashable {
  public var code: Int
  public var message: LocalizedText
  public var data: JSON?

  public init(code: Int, message: LocalizedText, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The error object as it goes on the wire, its message in `locale`.
  public func json(in locale: MessageLocale) -> JSON {
    var object: JSONObject = ["code": JSON(code), "message": JSON(message.text(in: locale))]
    if let data { object["data"] = data }
    return .object(object)
  }
}

extension RPCError {
  public static let parseErrorCode = -32700
  public static let invalidRequestCode = -32600
  public static let methodNotFoundCode = -32601
  public static let invalidParamsCode = -32602
  public static let internalErrorCode = -32603
  public static let serverNotInitializedCode = -32002
  public static let requestCancelledCode = -32800
  public static let notFoundCode = -32001
  public static let conflictCode = -32009
  public static let upstreamUnavailableCode = -32020
  public static let upstreamErrorCode = -32021
  public static let storageFullCode = -32030

  /// Bad framing, bad JSON, a message too large or too deep.
  public static func parseError(_ reason: String) -> RPCError {
    RPCError(
      code: parseErrorCode,
      message: "The message could not be read; check that it is one JSON-RPC 2.0 message.",
      data: ["reason": JSON(reason)])
  }

  public static func invalidRequest(_ reason: String) -> RPCError {
    RPCError(
      code: invalidRequestCode,
      message: "The message is not a JSON-RPC 2.0 request the daemon can take now.",
      data: ["reason": JSON(reason)])
  }

  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(
      code: methodNotFoundCode,
      message: "There is no method \(method); rpc.discover lists the methods.",
      data: ["method": JSON(method)])
  }

  /// A parameter that is missing, of the wrong type or out of range; `field`
  /// is its path (`tags[2]`, `query.limit`). `data.reason` is the English
  /// reason, the same in every language.
  public static func invalidParams(field: String, reason: LocalizedText) -> RPCError {
    RPCError(
      code: invalidParamsCode, message: "Invalid parameter \(field): \(reason).",
      data: ["field": JSON(field), "reason": JSON(reason.english)])
  }

  /// A member the method does not take: named in `field`, with the names it
  /// does take in `expected` and, for a near miss, the one meant.
  public static func unknownParameter(field: String, expected: [String], suggestion: String?)
    -> RPCError
  {
    let names = expected.joined(separator: ", ")
    var data: JSONObject = [
      "field": JSON(field), "reason": "unknown parameter",
      "expected": .array(expected.map { JSON($0) }),
    ]
    guard let suggestion else {
      return RPCError(
        code: invalidParamsCode, message: "Unknown parameter \(field); expected one of \(names).",
        data: .object(data))
    }
    data["suggestion"] = JSON(suggestion)
    return RPCError(
      code: invalidParamsCode, message: "Unknown parameter \(field); did you mean \(suggestion)?",
      data: .object(data))
  }

  /// Something went wrong inside the daemon; the detail is logged, not sent.
  public static let internalError = RPCError(
    code: internalErrorCode,
    message: "Something went wrong inside catalogd; try again, and report it if it recurs.")

  public static let serverNotInitialized = RPCError(
    code: serverNotInitializedCode, message: "The session has not started; send initialize first.")

  public static let requestCancelled = RPCError(
    code: requestCancelledCode, message: "The request was cancelled.")

  /// No such item; `id` is `nil` when the search had no id (a filter matched nothing).
  public static func notFound(resource: String, id: String?) -> RPCError {
    let noun = LocalizedText(template: resource)
    guard let id else {
      return RPCError(
        code: notFoundCode, message: "No \(noun) matches; try other filters.",
        data: ["resource": JSON(resource), "id": nil])
    }
    return RPCError(
      code: notFoundCode, message: "No \(noun) with id \(id); it may have been deleted.",
      data: ["resource": JSON(resource), "id": JSON(id)])
  }

  public static func conflict(currentVersion: Int) -> RPCError {
    RPCError(
      code: conflictCode,
      message: "The item was changed by someone else; reload it and try again.",
      data: ["currentVersion": JSON(currentVersion)])
  }

  /// The upstream could not be reached (connect, TLS, timeout); trying again may work.
  public static func upstreamUnavailable(service: String, reason: String) -> RPCError {
    let name = LocalizedText(template: service)
    return RPCError(
      code: upstreamUnavailableCode,
      message: "The \(name) server cannot be reached; try again later.",
      data: ["service": JSON(service), "retryable": true, "reason": JSON(reason)])
  }

  /// Another daemon on the same data dir held the database's write lock past
  /// the retries; trying again may work.
  public static func databaseBusy(service: String) -> RPCError {
    RPCError(
      code: upstreamUnavailableCode,
      message: "The catalog is busy with another program's change; try again.",
      data: [
        "service": JSON(service), "retryable": true,
        "reason": "the database is locked by another process",
      ])
  }

  /// A change could not be written: the disk that holds the data is full.
  /// Nothing of it was saved; trying again after space was freed may work.
  public static func storageFull(reason: String) -> RPCError {
    RPCError(
      code: storageFullCode,
      message: "Not saved: the disk that holds the data is full. Free some space, then try again.",
      data: ["retryable": true, "reason": JSON(reason)])
  }

  /// The upstream answered, but not with something usable; `detail` says
  /// what was wrong (in `data.upstreamMessage`, as before).
  public static func upstreamError(service: String, status: Int?, detail: String?) -> RPCError {
    var data: JSONObject = ["service": JSON(service)]
    if let status { data["status"] = JSON(status) }
    if let detail { data["upstreamMessage"] = JSON(detail) }
    return RPCError(code: upstreamErrorCode, message: upstreamSummary(service), data: .object(data))
  }

  /// The upstream refused and said why in words of its own (the product
  /// server's validation text, which the app shows in its dialog): that is
  /// the error's message, as the upstream wrote it; the generic text moves
  /// to `data.summary`, the message stays in `data.upstreamMessage` too.
  public static func upstreamRefused(service: String, status: Int, message: String) -> RPCError {
    RPCError(
      code: upstreamErrorCode, message: .verbatim(message),
      data: [
        "service": JSON(service), "status": JSON(status), "upstreamMessage": JSON(message),
        "summary": JSON(upstreamSummary(service).english),
      ])
  }

  private static func upstreamSummary(_ service: String) -> LocalizedText {
    "The \(LocalizedText(template: service)) server answered with an error; try again later."
  }
}
