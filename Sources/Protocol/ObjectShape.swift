/// The members of an object schema.
public struct ObjectShape: Sendable {
  public let members: [Member]
  /// Refuses members not in `members` (with a suggestion for a near miss).
  /// Off for messages editors fill with fields of their own (`clientInfo`).
  public let strict: Bool

  public init(members: [Member], strict: Bool = true) {
    self.members = members
    self.strict = strict
  }

  public var names: [String] { members.map(\.name) }

  public func member(named name: String) -> Member? { members.first { $0.name == name } }
}
