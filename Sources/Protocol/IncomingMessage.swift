/// One message a client sent, classified as JSON-RPC 2.0 defines.
public enum IncomingMessage: Sendable {
  case request(id: RequestID, method: String, params: JSON?)
  case notification(method: String, params: JSON?)
  /// A response to a request the daemon sent; the daemon sends none yet, so these are ignored.
  case response(id: RequestID)
  /// Not a valid message; answered with this error and the id when it could be read.
  case invalid(id: RequestID, error: RPCError)

  /// Classifies one element of a message (a batch's elements are classified one by one).
  public init(_ json: JSON) {
    guard case .object(let object) = json else {
      self = .invalid(id: .null, error: .invalidRequest("a request must be a JSON object"))
      return
    }
    let idValue = object["id"]
    let id: RequestID
    if let idValue {
      guard let readable = RequestID(idValue) else {
        self = .invalid(
          id: .null, error: .invalidRequest("id must be a string, a number or null"))
        return
      }
      id = readable
    } else {
      id = .null
    }
    guard object["jsonrpc"] == .string("2.0") else {
      self = .invalid(id: id, error: .invalidRequest("jsonrpc must be \"2.0\""))
      return
    }
    guard let methodValue = object["method"] else {
      if idValue != nil, object["result"] != nil || object["error"] != nil {
        self = .response(id: id)
      } else {
        self = .invalid(id: id, error: .invalidRequest("method is missing"))
      }
      return
    }
    guard case .string(let method) = methodValue else {
      self = .invalid(id: id, error: .invalidRequest("method must be a string"))
      return
    }
    var params = object["params"]
    switch params {
    case nil, .object?, .array?: break
    // Emacs's jsonrpc.el and Go's jsonrpc2 send `"params": null` for shutdown and exit.
    case .null?: params = nil
    default:
      self = .invalid(id: id, error: .invalidRequest("params must be an object or an array"))
      return
    }
    if idValue == nil {
      self = .notification(method: method, params: params)
    } else {
      self = .request(id: id, method: method, params: params)
    }
  }
}
