import Protocol

/// One setting: its flag, environment variable and config-file key, and how
/// its text becomes part of the configuration. The table below drives
/// parsing, precedence and `--help` alike.
struct Setting: Sendable {
  let flag: String
  let environment: String?
  let key: String?
  let valueName: String
  let help: String
  let apply: @Sendable (inout Configuration, String) throws(ConfigurationError) -> Void

  static let all: [Setting] = [
    Setting(
      flag: "--framing", environment: "CATALOGD_FRAMING", key: "framing",
      valueName: "auto|lsp|ndjson",
      help: "message framing; auto detects it from the client's first bytes"
    ) { configuration, value throws(ConfigurationError) in
      guard let mode = FramingMode(value) else { throw invalid(value) }
      configuration.framing = mode
    },
    Setting(
      flag: "--data-dir", environment: "CATALOGD_DATA_DIR", key: "dataDir", valueName: "DIR",
      help: "where the daemon keeps its files (default $XDG_DATA_HOME/catalogd)"
    ) { configuration, value in configuration.dataDirectory = value },
    Setting(
      flag: "--photos-dir", environment: "CATALOGD_PHOTOS_DIR", key: "photosDir", valueName: "DIR",
      help: "the folder of images the photos service lists"
    ) { configuration, value in configuration.photosDirectory = value },
    Setting(
      flag: "--log-level", environment: "CATALOGD_LOG_LEVEL", key: "logLevel",
      valueName: "error|warn|info|debug|trace", help: "how much to log on stderr (default info)"
    ) { configuration, value throws(ConfigurationError) in
      guard let level = LogLevel(name: value) else { throw invalid(value) }
      configuration.logLevel = level
    },
    Setting(
      flag: "--trace", environment: "CATALOGD_TRACE", key: "trace", valueName: "FILE",
      help: "record every message in and out, with timestamps"
    ) { configuration, value in configuration.tracePath = value },
    Setting(
      flag: "--quotes-url", environment: "CATALOGD_QUOTES_URL", key: "quotesUrl", valueName: "URL",
      help: "a quotable-compatible server; selects the remote quotes backend"
    ) { configuration, value in configuration.quotesURL = value.isEmpty ? nil : value },
    Setting(
      flag: "--server-url", environment: "CATALOGD_SERVER_URL", key: "serverUrl", valueName: "URL",
      help: "the products GraphQL endpoint; selects the remote products backend"
    ) { configuration, value in configuration.serverURL = value.isEmpty ? nil : value },
    Setting(
      flag: "--database-url", environment: "CATALOGD_DATABASE_URL", key: "databaseUrl",
      valueName: "URL",
      help: "a postgres:// URL; selects the shared PostgreSQL products catalog"
    ) { configuration, value throws(ConfigurationError) in
      guard !value.isEmpty else {
        configuration.databaseURL = nil
        return
      }
      guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
        throw ConfigurationError(description: "expected a postgres:// URL")
      }
      configuration.databaseURL = value
    },
    Setting(
      flag: "--photos-url", environment: "CATALOGD_PHOTOS_URL", key: "photosUrl", valueName: "URL",
      help: "a Lorem Picsum-compatible server; selects the remote photos backend"
    ) { configuration, value in configuration.photosURL = value.isEmpty ? nil : value },
    Setting(
      flag: "--places-url", environment: "CATALOGD_PLACES_URL", key: "placesUrl", valueName: "URL",
      help: "a Kakao Local-compatible server; selects the remote places backend"
    ) { configuration, value in configuration.placesURL = value.isEmpty ? nil : value },
    Setting(
      flag: "--kakao-rest-api-key", environment: "KAKAO_REST_API_KEY", key: "kakaoRestApiKey",
      valueName: "KEY", help: "the key sent to the places server (prefer the environment)"
    ) { configuration, value in configuration.kakaoRestAPIKey = value },
    Setting(
      flag: "--upstream-timeout-ms", environment: "CATALOGD_UPSTREAM_TIMEOUT_MS",
      key: "upstreamTimeoutMs", valueName: "N",
      help: "time limit of one upstream request (default 10000)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.upstreamTimeoutMilliseconds = try positive(value)
    },
    Setting(
      flag: "--image-cache-mb", environment: "CATALOGD_IMAGE_CACHE_MB", key: "imageCacheMb",
      valueName: "N",
      help: "MiB of downloaded images kept on disk, least recently used out first (default 256)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.imageCacheMegabytes = min(try positive(value), maxImageCacheMegabytes)
    },
    Setting(
      flag: "--max-message-bytes", environment: "CATALOGD_MAX_MESSAGE_BYTES",
      key: "maxMessageBytes",
      valueName: "N", help: "largest message accepted (default 16777216)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.maxMessageBytes = try positive(value)
    },
    Setting(
      flag: "--max-depth", environment: "CATALOGD_MAX_DEPTH", key: "maxDepth", valueName: "N",
      help: "deepest JSON nesting accepted (default 128, at most 10000)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.maxDepth = min(try positive(value), JSONParser.maxDepthLimit)
    },
    Setting(
      flag: "--max-in-flight", environment: "CATALOGD_MAX_IN_FLIGHT", key: "maxInFlight",
      valueName: "N", help: "requests running at once before the daemon stops reading (default 256)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.maxInFlight = try positive(value)
    },
    Setting(
      flag: "--max-queued-output-bytes", environment: "CATALOGD_MAX_QUEUED_OUTPUT_BYTES",
      key: "maxQueuedOutputBytes", valueName: "N",
      help: "output waiting for the client before the daemon stops reading (default 67108864)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.maxQueuedOutputBytes = try positive(value)
    },
    Setting(
      flag: "--max-open-feeds", environment: "CATALOGD_MAX_OPEN_FEEDS", key: "maxOpenFeeds",
      valueName: "N", help: "feeds a session may hold open at once (default 64)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.maxOpenFeeds = try positive(value)
    },
    Setting(
      flag: "--remote", environment: "CATALOGD_REMOTE", key: "remote", valueName: "auto|PATH",
      help:
        "forward to a shared daemon: auto finds or starts the one of this configuration, PATH is its socket"
    ) { configuration, value in configuration.remote = value.isEmpty ? nil : RemoteTarget(value) },
    Setting(
      flag: "--listen", environment: nil, key: nil, valueName: "PATH",
      help: "with serve: the Unix socket the shared daemon listens on"
    ) { configuration, value in configuration.listenPath = value },
    Setting(
      flag: "--idle-timeout", environment: "CATALOGD_IDLE_TIMEOUT", key: "idleTimeout",
      valueName: "SECONDS",
      help: "a shared daemon with no session exits after this long (default 60)"
    ) { configuration, value throws(ConfigurationError) in
      configuration.idleTimeoutSeconds = try positive(value)
    },
  ]

  /// 1 TiB: more than any disk the cache sits on, and far from overflowing
  /// when turned into bytes.
  static let maxImageCacheMegabytes = 1 << 20

  private static func invalid(_ value: String) -> ConfigurationError {
    ConfigurationError(description: "invalid value \"\(value)\"")
  }

  private static func positive(_ value: String) throws(ConfigurationError) -> Int {
    guard let number = Int(value), number > 0 else {
      throw ConfigurationError(description: "expected a positive integer, got \"\(value)\"")
    }
    return number
  }

  /// Applies `value`, naming where it came from (a flag, a variable, a file's key) in errors.
  func apply(_ value: String, to configuration: inout Configuration, from source: String)
    throws(ConfigurationError)
  {
    do {
      try apply(&configuration, value)
    } catch {
      throw ConfigurationError(description: "\(source): \(error.description)")
    }
  }
}
