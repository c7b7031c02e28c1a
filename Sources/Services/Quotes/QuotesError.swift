/// Failures of the quotes service's own domain (upstream failures are `UpstreamFailure`).
public enum QuotesError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No quote matches the filter. The daemon answers -32001 with
  /// `data: {resource: "quote", id: null}`.
  case noMatch

  public var description: String {
    switch self {
    case .noMatch: "no quote matches the filter"
    }
  }
}
