/// A resource the caller named does not exist; the daemon answers -32001 with
/// `data: {resource, id}`.
public struct NotFound: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of resource, as the wire names it: "product", "photo", "place", "quote".
  public let resource: String
  /// The id the caller asked for; nil when the request named no id (a search with no result).
  public let id: String?

  public init(resource: String, id: String?) {
    self.resource = resource
    self.id = id
  }

  public var description: String { "no \(resource)" + (id.map { " with id \($0)" } ?? "") }
}
