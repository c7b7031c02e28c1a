import Protocol

/// The exchange every remote backend makes: a request whose failure is the
/// service's error, and a body read as JSON.
extension HTTPClient {
  /// Sends `request` to `service`'s upstream; a failed exchange becomes that
  /// service's error (`HTTPFailure.serviceError`).
  func send(_ request: HTTPRequest, for service: String) async throws -> HTTPResponse {
    do {
      return try await send(request)
    } catch {
      throw error.serviceError(service: service)
    }
  }
}

extension HTTPResponse {
  /// The body as JSON, or why it is not (an error page need not be JSON).
  var json: Result<JSON, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONParser.parse(body) }
  }
}
