import FoundationEssentials
import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd remote sessions [--remote=auto|PATH]`: the sessions of the
/// shared daemon of this configuration (or at PATH), one line each. It never
/// starts a daemon: "none runs" is an answer.
enum RemoteSessionsCommand {
  static func run(_ configuration: Configuration) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let reply: JSON
    do {
      let target: RemoteTarget
      switch configuration.remote ?? .auto {
      case .auto:
        // The socket `auto` would use, asked without starting anything.
        let directory = try SocketDirectory.forUser(environment: environment)
        target = .socket(path: SocketDirectory.socketPath(for: configuration, in: directory))
      case let explicit:
        target = explicit
      }
      let connection = try RemoteConnection.open(
        target, configuration: configuration, arguments: [], environment: environment)
      reply = try RemoteExchange.request(
        "daemon/sessions", params: nil, clientName: "catalogd remote sessions", over: connection)
    } catch .notListening(let path) {
      printLine("no shared catalogd runs at \(path)")
      return 1
    } catch {
      printLine("catalogd: \(error)")
      return 1
    }
    guard case .array(let sessions)? = reply["result"]?["sessions"] else {
      printLine(
        "catalogd: the shared daemon answered \(String(decoding: reply.serialized(), as: UTF8.self))"
      )
      return 1
    }
    var lines = [["SESSION", "CLIENT", "PID", "UPTIME", "REQUESTS", "IN FLIGHT"]]
    for session in sessions {
      let current = session["current"] == true ? " (this)" : ""
      lines.append([
        "\(session["number"]?.intValue ?? 0)\(current)",
        session["clientName"]?.stringValue ?? "-",
        session["pid"]?.intValue.map(String.init) ?? "-",
        uptime(session["uptimeSeconds"]?.numberValue?.doubleValue ?? 0),
        "\(session["requests"]?.intValue ?? 0)",
        "\(session["inFlight"]?.intValue ?? 0)",
      ])
    }
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max() ?? 0 }
    let text = lines.map { line in
      zip(line, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
        .joined(separator: "  ").trimmingTrailingSpaces()
    }
    Array((text.joined(separator: "\n") + "\n").utf8).withUnsafeBytes { _ = writeAll(1, $0) }
    return 0
  }

  private static func uptime(_ seconds: Double) -> String {
    let whole = Int(seconds)
    if whole < 60 { return "\(whole)s" }
    if whole < 3600 { return "\(whole / 60)m\(whole % 60)s" }
    return "\(whole / 3600)h\((whole % 3600) / 60)m"
  }

}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
