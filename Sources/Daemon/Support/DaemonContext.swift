import FoundationEssentials
import Protocol

/// What every handler shares: the configuration, the services, counters,
/// and the session's client id once `initialize` has set it.
final class DaemonContext: Sendable {
  let configuration: Configuration
  let services: ServiceHub
  let statistics = RequestStatistics()
  let timings = MethodTimings()
  /// The language of error messages until a session's `initialize` names one.
  let defaultLocale = MessageLocale.fromEnvironment(ProcessInfo.processInfo.environment)
  /// When the daemon started (monotonic seconds).
  let startedAt = monotonicSeconds()

  init(configuration: Configuration, services: ServiceHub) {
    self.configuration = configuration
    self.services = services
  }

  /// What `initialize` learned of the client, and its reply.
  struct InitializedClient {
    let result: JSON
    /// The client id: given, or the one persisted in the data dir.
    let id: String
    let name: String?
    /// The language of error messages it asked for, else the daemon's.
    let locale: MessageLocale
  }

  /// Handles `initialize`: picks the client id and the language of error
  /// messages (else `defaultLocale`, else the daemon's), and describes the server.
  func initialize(_ params: JSON?, defaultLocale: MessageLocale? = nil) throws
    -> InitializedClient
  {
    let params = try LifecycleContracts.initialize.check(params)
    let clientName = params[LifecycleContracts.clientInfo]?["name"]?.stringValue
    let given = params[LifecycleContracts.clientId]
    let id: String
    if let given, !given.isEmpty {
      id = given
    } else {
      id = try DataDirectory(path: configuration.dataDirectory).persistentClientId()
    }
    let locale = params[LifecycleContracts.locale].flatMap(MessageLocale.init(identifier:))
    Log.debug("initialized", ["client.name": clientName ?? "-", "client.id": id])
    let result: JSON = [
      "serverInfo": ["name": "catalogd", "version": JSON(Version.current)],
      "clientId": JSON(id),
      "capabilities": [
        "services": services.capabilities,
        "limits": [
          "maxMessageBytes": JSON(configuration.maxMessageBytes),
          "maxDepth": JSON(configuration.maxDepth),
          "maxInFlight": JSON(configuration.maxInFlight),
        ],
        "framings": ["lsp", "ndjson"],
        "cancelRequest": true,
        "workDoneProgress": true,
      ],
    ]
    return InitializedClient(
      result: result, id: id, name: clientName,
      locale: locale ?? defaultLocale ?? self.defaultLocale)
  }
}
