/// Which shared daemon a forwarder talks to.
enum RemoteTarget: Sendable, Equatable {
  /// The daemon of this configuration, in the user's socket folder, started when none runs.
  case auto
  /// The daemon listening on this Unix socket (started by `catalogd serve --listen PATH`).
  case socket(path: String)

  init(_ value: String) {
    self = value == "auto" ? .auto : .socket(path: value)
  }
}
