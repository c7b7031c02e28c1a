import Protocol

/// An argument breaks a rule of the service's domain; the daemon answers -32602
/// with `data: {field, reason}`.
///
/// Who validates what: the daemon's method handlers check the wire params
/// (presence, JSON types, documented ranges such as `limit` 1–100) before calling a
/// service. Services check only the rules of their domain that a handler cannot
/// see or that span fields (`minLength` above `maxLength`), and the preconditions
/// their arithmetic relies on (`page >= 1`), so they stay safe when called directly.
public struct InvalidArgument: Error, Sendable, Hashable, CustomStringConvertible {
  /// The param's wire name, such as `maxLength`.
  public let field: String
  /// Why the value is refused, as a sentence fragment in the session's
  /// language: "must be at least 1" (each has its Korean in `MessageCatalog`).
  public let reason: LocalizedText

  public init(field: String, reason: LocalizedText) {
    self.field = field
    self.reason = reason
  }

  public var description: String { "\(field) \(reason)" }
}
