/// How the photos service reports what it skipped and did: a level, a
/// message, and structured metadata (`path`, `reason`, counts). The daemon
/// writes them to its stderr log; tests collect them.
public typealias PhotoLog =
  @Sendable (_ level: PhotoLogLevel, _ message: String, _ metadata: [String: String]) -> Void
