/// Sends HTTP requests with the system libcurl, loaded on first use.
///
/// Each exchange runs on a thread of its own (see `DedicatedThread`), so a slow
/// upstream never holds a thread of Swift's cooperative pool. Cancelling the
/// calling task aborts the transfer at once and ends `send` with `.cancelled`.
public struct HTTPClient: Sendable {
  public init() {}

  /// Checks that libcurl can be loaded, loading it now if it was not yet.
  public static func checkAvailability() throws(HTTPFailure) {
    try CurlTransfer.checkAvailability()
  }

  public func send(_ request: HTTPRequest) async throws(HTTPFailure) -> HTTPResponse {
    try request.validate()
    guard let transfer = CurlTransfer(request) else { throw .failed("out of memory") }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let started = DedicatedThread.start { continuation.resume(returning: transfer.perform()) }
        if !started {
          continuation.resume(returning: .failure(.unavailable("could not start a thread")))
        }
      }
    } onCancel: {
      transfer.cancel()
    }
    return try result.get()
  }
}
