/// The params of a request, checked against the method's declared params:
/// every missing, mistyped, out-of-range or unknown member has already
/// become -32602 naming its path, so reading a declared `Param` cannot fail.
public struct Params: Sendable {
  /// The members as sent; empty when the request had no params.
  public let object: JSONObject
  /// The path of this object in the request (`query` for a feed's query),
  /// for errors about rules between members that the declarations do not state.
  public let path: String

  /// Checks `params` (absent, `null` or an object) against `shape`.
  public init(_ params: JSON?, checkedAgainst shape: ObjectShape, path: String = "")
    throws(RPCError)
  {
    self.path = path
    switch params {
    case nil, .null?: object = JSONObject()
    case .object(let object)?: self.object = object
    case let other?:
      throw .invalidParams(
        field: path.isEmpty ? "params" : path,
        reason: "expected an object of named params, got \(other.typeText)")
    }
    try shape.validate(object, at: path)
  }

  public subscript<Value>(param: Param<Value>) -> Value {
    param.read(object[param.member.name])
  }

  /// The full path of a member, for errors about it.
  public func field(_ name: String) -> String { Schema.join(path, name) }
}
