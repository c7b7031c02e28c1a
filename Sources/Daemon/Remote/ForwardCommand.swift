import FoundationEssentials
import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd --remote=auto|PATH [options]`: the client's stdio contract,
/// served by a shared daemon. Connects (starting the daemon of this
/// configuration for `auto`), then forwards the session until it ends.
enum ForwardCommand {
  static func run(_ configuration: Configuration, arguments: [String]) -> Never {
    let environment = ProcessInfo.processInfo.environment
    let connection: RemoteConnection
    do {
      connection = try RemoteConnection.open(
        configuration.remote ?? .auto, configuration: configuration, arguments: arguments,
        environment: environment)
    } catch {
      printLine("catalogd: \(error)")
      exit(1)
    }
    Log.debug("forwarding the session", ["socket": connection.socketPath])

    let protocolFD = takeProtocolStdout()
    let tracer = Tracer.of(configuration)

    ResidentCode.release()
    let forwarder = Forwarder(
      clientInput: 0, clientOutput: protocolFD, socket: connection.fd,
      framing: configuration.framing, maxMessageBytes: configuration.maxMessageBytes,
      locale: MessageLocale.fromEnvironment(environment), tracer: tracer)
    switch forwarder.run() {
    case .finished(let status):
      exit(status)
    case .clientGone:
      // As a daemon of its own does when the client closes its end of stdout.
      exit(0)
    case .daemonLost(let reason, let failed):
      let answered =
        failed == 0
        ? "no request was waiting"
        : "\(failed) waiting request\(failed == 1 ? " was" : "s were") answered with -32020, "
          + "retryable"
      let log = connection.logPath.map { "; its log is \($0)" } ?? ""
      printLine(
        "catalogd: the shared daemon at \(connection.socketPath) closed the connection "
          + "(\(reason); \(answered))\(log)")
      exit(1)
    }
  }

}
