/// A param with its type erased, for a method's list of params.
public protocol DeclaredParam: Sendable {
  var member: Member { get }
}

extension ObjectShape {
  /// The shape of an object of these params.
  public init(_ params: [any DeclaredParam], strict: Bool = true) {
    self.init(members: params.map(\.member), strict: strict)
  }
}
