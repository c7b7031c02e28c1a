import Protocol

/// A method's whole contract, declared once beside its handler: the name, a
/// summary, every param (type, range, default, description) and the result.
/// Requests are checked against it before the handler runs; `rpc.discover`,
/// `openrpc.json` and the clients' generated types are written from it.
struct MethodContract: Sendable {
  let name: String
  let summary: String
  let params: ObjectShape
  let result: MethodResult
  /// Members a client may well send that this method refuses with a reason
  /// of their own rather than "unknown parameter" (offset paging on a cursor method).
  let refused: [(name: String, reason: LocalizedText)]
  /// Takes params of any shape, by position too (`daemon/echo`).
  let takesAnyParams: Bool

  /// `lenient` lets unknown members through, for messages editors fill
  /// with fields of their own (`initialize`).
  init(
    _ name: String, _ summary: String, params: [any DeclaredParam] = [], result: MethodResult,
    refused: [(name: String, reason: LocalizedText)] = [], takesAnyParams: Bool = false,
    lenient: Bool = false
  ) {
    self.name = name
    self.summary = summary
    self.params = ObjectShape(params, strict: !lenient)
    self.result = result
    self.refused = refused
    self.takesAnyParams = takesAnyParams
  }

  /// The request's params checked against the declaration.
  func check(_ params: JSON?) throws(RPCError) -> Params {
    if case .object(let object)? = params {
      for refusal in refused where object[refusal.name] != nil {
        throw .invalidParams(field: refusal.name, reason: refusal.reason)
      }
    }
    return try Params(params, checkedAgainst: self.params)
  }

  /// The service whose capabilities list the method (`suppliers/list` is the
  /// products service's); `nil` for the daemon's own methods.
  var service: String? { Self.service(ofMethod: name) }

  static func service(ofMethod name: String) -> String? {
    guard let slash = name.firstIndex(of: "/") else { return nil }
    switch name[..<slash] {
    case "suppliers": return "products"
    case "daemon", "$": return nil
    case let prefix: return String(prefix)
    }
  }
}
