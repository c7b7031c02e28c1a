import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// A short session with a shared daemon, for the commands that ask it one
/// thing (`call --remote`, `remote sessions`): one end of a socket pair is
/// handed over as the session's stdin and stdout (`SessionHandoff`, as a
/// forwarder hands its client's), and this process writes `initialize`, the
/// request, `shutdown` and `exit` in NDJSON to the other, then reads the
/// replies until both the request's and the shutdown's have come.
enum RemoteExchange {
  /// The reply to `method`: its whole message (`result` or `error`).
  static func request(
    _ method: String, params: JSON?, clientName: String, over connection: RemoteConnection
  ) throws(RemoteError) -> JSON {
    defer { close(connection.fd) }
    var pair: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
    else {
      throw .system(call: "make a socket pair for", path: connection.socketPath, errno: errno)
    }
    let (fd, daemonEnd) = (pair[0], pair[1])
    defer { close(fd) }
    let handoff = SessionHandoff(
      input: daemonEnd, output: daemonEnd, table: nil, trace: nil, framing: .fixed(.ndjson),
      locale: .english)
    let sent = handoff.send(over: connection.fd)
    let code = errno
    close(daemonEnd)
    guard sent else {
      throw .system(call: "hand a session to", path: connection.socketPath, errno: code)
    }

    var request: JSONObject = ["jsonrpc": "2.0", "id": 1, "method": JSON(method)]
    if let params { request["params"] = params }
    let messages: [JSON] = [
      [
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": ["clientInfo": ["name": JSON(clientName)]],
      ],
      ["jsonrpc": "2.0", "method": "initialized"],
      .object(request),
      ["jsonrpc": "2.0", "id": 2, "method": "shutdown"],
      ["jsonrpc": "2.0", "method": "exit"],
    ]
    var bytes: [UInt8] = []
    for message in messages {
      bytes += message.serialized()
      bytes.append(UInt8(ascii: "\n"))
    }
    guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
      throw .system(call: "write to", path: connection.socketPath, errno: errno)
    }
    var replies: [Int: JSON] = [:]
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while replies[1] == nil || replies[2] == nil {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      buffer += chunk[0..<count]
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if let reply = try? JSONParser.parse(line), let id = reply["id"]?.intValue {
          replies[id] = reply
        }
      }
    }
    guard let reply = replies[1] else { throw .closedBeforeAnswering(connection.socketPath) }
    return reply
  }
}
