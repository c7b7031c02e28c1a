import FoundationEssentials
import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd --remote=auto|PATH [options]`: the client's stdio contract,
/// served by a shared daemon. Connects (starting the daemon of this
/// configuration for `auto`), hands the client's stdin and stdout over to
/// it, then waits for the session's end (`Forwarder`).
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
    Log.debug("handing the session over", ["socket": connection.socketPath])

    let protocolFD = takeProtocolStdout()
    let locale = MessageLocale.fromEnvironment(environment)
    let table = SharedMemoryFile.create(name: "catalogd-session")
    if table == nil {
      Log.warn(
        "cannot make the table of waiting requests; if the shared daemon dies, they get no -32020")
    }
    let trace = configuration.tracePath.flatMap { path in
      let fd = Tracer.open(path)
      if fd == nil { Log.warn("cannot open the trace file", ["path": path]) }
      return fd
    }
    let handoff = SessionHandoff(
      input: 0, output: protocolFD, table: table, trace: trace, framing: configuration.framing,
      locale: locale)
    guard handoff.send(over: connection.fd) else {
      printLine(
        "catalogd: cannot hand the session to the shared daemon at \(connection.socketPath): "
          + String(cString: strerror(errno)))
      exit(1)
    }
    if let trace { close(trace) }
    // The daemon reads the client's input now: the pipe keeps the readers it would have had.
    let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
    if nothing >= 0 {
      dup2(nothing, 0)
      close(nothing)
    }

    let forwarder = Forwarder(
      control: connection.fd, clientOutput: protocolFD, table: table,
      framing: configuration.framing, locale: locale)
    // Last before the wait, so that little runs (and faults pages back) after it.
    ResidentCode.release()
    switch forwarder.run() {
    case .finished(let status):
      exit(status)
    case .daemonLost(let reason, let failed, let unrecorded):
      var answered =
        failed == 0
        ? "no request was waiting"
        : "\(failed) waiting request\(failed == 1 ? " was" : "s were") answered with -32020, "
          + "retryable"
      if table == nil {
        answered = "the requests waiting, if any, could not be answered"
      } else if unrecorded > 0 {
        answered += "; \(unrecorded) more could not be recorded and get no answer"
      }
      let log = connection.logPath.map { "; its log is \($0)" } ?? ""
      printLine(
        "catalogd: the shared daemon at \(connection.socketPath) closed the connection "
          + "(\(reason); \(answered))\(log)")
      exit(1)
    }
  }
}
