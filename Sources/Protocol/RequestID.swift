/// A request id exactly as the client sent it.
///
/// Numbers keep their text, so `92` and `"92"` never compare equal and
/// `9007199254740993` is echoed unchanged. `null` is allowed by JSON-RPC 2.0
/// (though discouraged) and is answered with `"id": null`.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
  case number(JSONNumber)
  case string(String)
  case null

  /// The id when `json` is a valid id value (string, number or null).
  public init?(_ json: JSON) {
    switch json {
    case .number(let number): self = .number(number)
    case .string(let string): self = .string(string)
    case .null: self = .null
    default: return nil
    }
  }

  public var json: JSON {
    switch self {
    case .number(let number): .number(number)
    case .string(let string): .string(string)
    case .null: .null
    }
  }

  /// For logs: strings are quoted so `92` and `"92"` never look alike.
  public var description: String {
    switch self {
    case .number(let number): number.text
    case .string(let string): "\"\(string)\""
    case .null: "null"
    }
  }
}
