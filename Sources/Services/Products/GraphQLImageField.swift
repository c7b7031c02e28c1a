import Synchronization

/// Whether the products upstream knows `Product.imageUrl`, an optional field
/// that older upstreams lack. Assumed until the upstream rejects a document
/// or an input for naming it; from then on (for the daemon's life) operations
/// go without it and products from the upstream have no image.
final class GraphQLImageField: Sendable {
  private let missing = Atomic(false)

  var isMissing: Bool { missing.load(ordering: .relaxed) }

  func markMissing() { missing.store(true, ordering: .relaxed) }

  /// Whether `failure` is the upstream saying it has no such field: a GraphQL
  /// validation or input error naming `imageUrl` ("Cannot query field
  /// "imageUrl" on type "Product"", "Field "imageUrl" is not defined by type
  /// "CreateProductInput"").
  static func isRejection(_ failure: UpstreamFailure) -> Bool {
    let message: String
    switch failure {
    case .badResponse(_, _, let text?), .refused(_, _, let text): message = text
    default: return false
    }
    return message.contains("imageUrl")
      && (message.contains("Cannot query field") || message.contains("not defined")
        || message.contains("Unknown field") || message.contains("unknown field"))
  }
}
