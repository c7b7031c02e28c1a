enum Version {
  /// The daemon's version, reported by `--version`, `initialize` and `daemon/status`.
  static let current = "0.1.0"
}
