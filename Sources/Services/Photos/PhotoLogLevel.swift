public enum PhotoLogLevel: Sendable, Hashable {
  case debug
  case info
  case warn
}
