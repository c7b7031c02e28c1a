import FoundationEssentials
import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd call METHOD [PARAMS_JSON]`: runs one request in-process through
/// the same connection code as the daemon, prints the result as JSON on
/// stdout (exit 0) or the error object on stderr (exit 1).
enum CallCommand {
  static func run(_ configuration: Configuration, method: String, paramsText: String?) -> Int32 {
    var params: JSON?
    if let paramsText {
      do {
        params = try JSONParser.parse(paramsText)
      } catch {
        printLine("PARAMS_JSON is not valid JSON: \(error)")
        return 2
      }
    }
    if let target = configuration.remote {
      return remote(target, configuration, method: method, params: params)
    }
    let sink = CollectingSink()
    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    let connection = Connection(
      sink: sink, daemon: daemon, methods: MethodRegistry.all, onExit: { _ in })
    var request: JSONObject = ["jsonrpc": "2.0", "id": 1, "method": JSON(method)]
    if let params { request["params"] = params }
    for message: JSON in [
      [
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": ["clientInfo": ["name": "catalogd call"]],
      ],
      ["jsonrpc": "2.0", "method": "initialized"],
      .object(request),
    ] {
      message.serialized().withUnsafeBufferPointer { connection.receive($0) }
    }
    let replies = sink.waitForReplies(ids: [0, 1])
    // A failed initialize is the answer too.
    return printOutcome(
      replies.first { $0["error"] != nil } ?? replies.first { $0["id"] == 1 } ?? .null)
  }

  /// The same request, in a session of the shared daemon `target` names.
  private static func remote(
    _ target: RemoteTarget, _ configuration: Configuration, method: String, params: JSON?
  ) -> Int32 {
    let reply: JSON
    do {
      let connection = try RemoteConnection.open(
        target, configuration: configuration, arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment)
      reply = try RemoteExchange.request(
        method, params: params, clientName: "catalogd call", over: connection)
    } catch {
      printLine("catalogd: \(error)")
      return 1
    }
    return printOutcome(reply)
  }

  /// A reply's result as JSON on stdout (0), or its error object on stderr (1).
  private static func printOutcome(_ reply: JSON) -> Int32 {
    if let error = reply["error"] {
      printLine(String(decoding: error.serialized(), as: UTF8.self))
      return 1
    }
    printLine(String(decoding: (reply["result"] ?? .null).serialized(), as: UTF8.self), to: 1)
    return 0
  }
}
