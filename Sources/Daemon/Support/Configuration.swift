import FoundationEssentials
import Protocol
import Services

/// Everything the daemon can be told, resolved from (weakest first) its
/// defaults, the JSON config file, the environment and the command line.
struct Configuration: Sendable {
  var framing = FramingMode.auto
  var dataDirectory = Configuration.defaultDataDirectory()
  var photosDirectory: String?
  var logLevel = LogLevel.info
  var tracePath: String?
  var quotesURL: String?
  var serverURL: String?
  /// A `postgres://` URL; selects the shared PostgreSQL catalog. May hold a
  /// password: never logged nor returned.
  var databaseURL: String?
  var photosURL: String?
  var placesURL: String?
  /// A secret: never logged nor returned.
  var kakaoRestAPIKey: String?
  var upstreamTimeoutMilliseconds = 10_000
  var maxMessageBytes = 16 << 20
  var maxDepth = JSONParser.defaultMaxDepth
  var maxInFlight = 256
  var maxQueuedOutputBytes = 64 << 20
  var maxOpenFeeds = FeedEngine.defaultMaxOpenFeeds
  /// The image cache's bound, in MiB (`images/get` and remote `photos/image`).
  var imageCacheMegabytes = Configuration.defaultImageCacheMegabytes
  /// The config file that was read, if any.
  var configPath: String?
  /// Where a forwarder sends the session (`--remote`); nil serves it here.
  var remote: RemoteTarget?
  /// The Unix socket of `catalogd serve --listen PATH`.
  var listenPath: String?
  /// How long a shared daemon with no session waits before it exits.
  var idleTimeoutSeconds = 60

  /// The framing replies use until the client's first bytes tell (NDJSON unless fixed).
  var initialFraming: Framing {
    if case .fixed(let framing) = framing { framing } else { .ndjson }
  }

  /// 256 MiB: about a hundred photos at full resolution, or thousands of
  /// screen-sized ones and product pictures; the size the photo cache had.
  static let defaultImageCacheMegabytes = 256

  static func defaultDataDirectory() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/catalogd" }
    return (environment["HOME"] ?? ".") + "/.local/share/catalogd"
  }
}

extension Configuration {
  /// Resolves the configuration: defaults, then the config file (`--config`,
  /// else `$XDG_CONFIG_HOME/catalogd/config.json` when it exists), then the
  /// environment, then `flags` (flag name → value, already split from argv).
  static func resolve(flags: [String: String], environment: [String: String])
    throws(ConfigurationError) -> Configuration
  {
    var configuration = Configuration()
    let explicitPath = flags["--config"] ?? environment["CATALOGD_CONFIG"]
    let configHome =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? ((environment["HOME"] ?? ".") + "/.config")
    let path = explicitPath ?? configHome + "/catalogd/config.json"
    if let contents = FileManager.default.contents(atPath: path) {
      configuration.configPath = path
      try configuration.apply(configFile: [UInt8](contents), path: path)
    } else if let explicitPath {
      throw ConfigurationError(description: "cannot read the config file \(explicitPath)")
    }
    for setting in Setting.all {
      if let name = setting.environment, let value = environment[name] {
        try setting.apply(value, to: &configuration, from: name)
      }
    }
    for setting in Setting.all {
      if let value = flags[setting.flag] {
        try setting.apply(value, to: &configuration, from: setting.flag)
      }
    }
    return configuration
  }

  private mutating func apply(configFile bytes: [UInt8], path: String) throws(ConfigurationError) {
    let json: JSON
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw ConfigurationError(description: "\(path) is not valid JSON: \(error)")
    }
    guard case .object(let object) = json else {
      throw ConfigurationError(description: "\(path) must hold a JSON object")
    }
    for (key, value) in object {
      guard let setting = Setting.all.first(where: { $0.key == key }) else {
        Log.warn("ignored an unknown key in the config file", ["key": key, "path": path])
        continue
      }
      let source = "\(path): \(key)"
      switch value {
      case .string(let text): try setting.apply(text, to: &self, from: source)
      case .number(let number): try setting.apply(number.text, to: &self, from: source)
      case .bool(let flag): try setting.apply(String(flag), to: &self, from: source)
      case .null: continue
      default:
        throw ConfigurationError(description: "\(path): \(key) must be a string or a number")
      }
    }
  }
}
