import Protocol
import Services

/// The one boundary where errors of handlers and services become wire errors.
/// Anything unexpected is logged here and sent as a bare -32603, so internal
/// detail never reaches the client.
func wireError(_ error: any Error, method: String) -> RPCError {
  switch error {
  case let error as RPCError:
    return error
  case is CancellationError:
    return .requestCancelled
  case let error as InvalidArgument:
    return .invalidParams(field: error.field, reason: error.reason)
  case let error as NotFound:
    return .notFound(resource: error.resource, id: error.id)
  case ProductsError.conflict(let currentVersion):
    return .conflict(currentVersion: currentVersion)
  case QuotesError.noMatch:
    return .notFound(resource: "quote", id: nil)
  case UpstreamFailure.unavailable(let service, let reason):
    Log.warn("upstream unavailable", ["rpc.method": method, "service": service, "reason": reason])
    return .upstreamUnavailable(service: service, reason: reason)
  case let error as SQLiteError where error.isBusy:
    // Another daemon on the data dir held the write lock past the busy
    // timeout and the retries: a supported setup, and the next try may pass.
    let service = String(method.prefix { $0 != "/" })
    Log.warn("database busy", ["rpc.method": method, "error": "\(error)"])
    return .databaseBusy(service: service)
  case let error as SQLiteError where error.isFull:
    Log.error("disk full", ["rpc.method": method, "error": "\(error)"])
    return .storageFull(reason: "no space left on the disk of the data dir")
  case UpstreamFailure.badResponse(let service, let status, let message):
    Log.warn(
      "upstream error",
      ["rpc.method": method, "service": service, "status": status.map(String.init) ?? "-"])
    return .upstreamError(service: service, status: status, detail: message)
  case UpstreamFailure.refused(let service, let status, let message):
    Log.info(
      "upstream refused", ["rpc.method": method, "service": service, "status": String(status)])
    return .upstreamRefused(service: service, status: status, message: message)
  case let error as ImageFetchError:
    Log.warn(
      "image download failed", ["rpc.method": method, "host": error.host, "error": "\(error)"])
    return imageFetchError(error)
  default:
    Log.error("internal error", ["rpc.method": method, "error": "\(error)"])
    return .internalError
  }
}

/// An image download that failed: -32020 when the host could not be reached
/// (retryable), -32021 for what it answered; the message names the host.
private func imageFetchError(_ error: ImageFetchError) -> RPCError {
  var data: JSONObject = ["service": "images", "host": JSON(error.host)]
  let code: Int
  let message: LocalizedText
  switch error {
  case .unavailable(let host, let reason):
    code = RPCError.upstreamUnavailableCode
    message = .phrase("The image server \(host) cannot be reached; try again later.")
    data["retryable"] = true
    data["reason"] = JSON(reason)
  case .badStatus(let host, let status):
    code = RPCError.upstreamErrorCode
    message = .phrase(
      "The image server \(host) answered with status \(status); the image could not be fetched.")
    data["status"] = JSON(status)
  case .tooLarge(let host, let limit):
    code = RPCError.upstreamErrorCode
    message = .phrase(
      "The image from \(host) is larger than \(limit) bytes, the most the image cache takes.")
    data["reason"] = JSON(error.description)
  case .notAnImage(let host):
    code = RPCError.upstreamErrorCode
    message = .phrase("What \(host) sent is not a JPEG, PNG, GIF or WebP image.")
    data["reason"] = JSON(error.description)
  case .failed(let host, let reason):
    code = RPCError.upstreamErrorCode
    message = .phrase("The image from \(host) could not be fetched; try again later.")
    data["reason"] = JSON(reason)
  }
  return RPCError(code: code, message: message, data: .object(data))
}
