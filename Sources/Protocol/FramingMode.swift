/// Which framing to read: a fixed one, or the one the client's first bytes show.
public enum FramingMode: Sendable, Hashable {
  case auto
  case fixed(Framing)

  public init?(_ text: String) {
    switch text {
    case "auto": self = .auto
    case "lsp": self = .fixed(.lsp)
    case "ndjson": self = .fixed(.ndjson)
    default: return nil
    }
  }
}
