/// Failures of the products domain besides `NotFound`, `InvalidArgument`
/// and `UpstreamFailure`.
public enum ProductsError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `expectedVersion` is stale; the daemon answers -32009 with `data: {currentVersion}`.
  case conflict(currentVersion: Int)

  public var description: String {
    switch self {
    case .conflict(let version): "the product was changed meanwhile (now version \(version))"
    }
  }
}
