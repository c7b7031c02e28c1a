/// A JSON-RPC error object: a code from the contract, one short sentence a UI
/// can show as is, and machine-readable detail in `data`.
public struct RPCError: Error, Sendable, Hashable {
  public var code: Int
  public var message: String
  public var data: JSON?

  public init(code: Int, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The error object as it goes on the wire.
  public var json: JSON {
    var object: JSONObject = ["code": JSON(code), "message": JSON(message)]
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
    RPCError(code: parseErrorCode, message: "Parse error.", data: ["reason": JSON(reason)])
  }

  public static func invalidRequest(_ reason: String) -> RPCError {
    RPCError(code: invalidRequestCode, message: "Invalid request.", data: ["reason": JSON(reason)])
  }

  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(
      code: methodNotFoundCode, message: "Method not found: \(method).",
      data: ["method": JSON(method)])
  }

  /// A parameter that is missing, of the wrong type or out of range; `field`
  /// is its path (`tags[2]`, `query.limit`).
  public static func invalidParams(field: String, reason: String) -> RPCError {
    RPCError(
      code: invalidParamsCode, message: "Invalid parameter \(field): \(reason).",
      data: ["field": JSON(field), "reason": JSON(reason)])
  }

  /// A member the method does not take: named in `field`, with the names it
  /// does take in `expected` and, for a near miss, the one meant.
  public static func unknownParameter(field: String, expected: [String], suggestion: String?)
    -> RPCError
  {
    let message =
      suggestion.map { "Unknown parameter \(field); did you mean \($0)?" }
      ?? "Unknown parameter \(field); expected one of \(expected.joined(separator: ", "))."
    var data: JSONObject = [
      "field": JSON(field), "reason": "unknown parameter",
      "expected": .array(expected.map { JSON($0) }),
    ]
    if let suggestion { data["suggestion"] = JSON(suggestion) }
    return RPCError(code: invalidParamsCode, message: message, data: .object(data))
  }

  /// Something went wrong inside the daemon; the detail is logged, not sent.
  public static let internalError = RPCError(code: internalErrorCode, message: "Internal error.")

  public static let serverNotInitialized = RPCError(
    code: serverNotInitializedCode, message: "The server is not initialized yet.")

  public static let requestCancelled = RPCError(
    code: requestCancelledCode, message: "The request was cancelled.")

  /// No such item; `id` is `nil` when the search had no id (a filter matched nothing).
  public static func notFound(resource: String, id: String?) -> RPCError {
    RPCError(
      code: notFoundCode,
      message: id.map { "No \(resource) with id \($0)." } ?? "No \(resource) matches.",
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
    RPCError(
      code: upstreamUnavailableCode, message: "The \(service) server is unavailable.",
      data: ["service": JSON(service), "retryable": true, "reason": JSON(reason)])
  }

  /// A change could not be written: the disk that holds the data is full.
  /// Nothing of it was saved; trying again after space was freed may work.
  public static func storageFull(reason: String) -> RPCError {
    RPCError(
      code: storageFullCode,
      message: "Not saved: the disk that holds the data is full. Free some space, then try again.",
      data: ["retryable": true, "reason": JSON(reason)])
  }

  /// The upstream answered, but not with something usable.
  public static func upstreamError(service: String, status: Int?, upstreamMessage: String?)
    -> RPCError
  {
    var data: JSONObject = ["service": JSON(service)]
    if let status { data["status"] = JSON(status) }
    if let upstreamMessage { data["upstreamMessage"] = JSON(upstreamMessage) }
    return RPCError(
      code: upstreamErrorCode, message: "The \(service) server returned an error.",
      data: .object(data))
  }
}
