import Protocol

/// A supplier of products.
public struct Supplier: Sendable, Hashable {
  public let id: String
  public let name: String

  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }

  public var json: JSON { ["id": JSON(id), "name": JSON(name)] }
}
