import Protocol

/// `daemon/sessions`: the clients this daemon serves now, one per connection
/// of a shared daemon (`catalogd remote sessions` prints them), or the one
/// client of a stdio daemon.
enum DaemonSessions {
  static let contract = MethodContract(
    "daemon/sessions",
    "The sessions the daemon serves now, oldest first: one per client of a shared daemon "
      + "(catalogd serve --listen), the caller's own alone in a stdio daemon.",
    params: [],
    result: MethodResult(
      "Sessions",
      .object([
        Member(
          "sessions",
          .array(
            of: .object([
              Member("number", .integer, required: true, "from 1, in the order sessions started"),
              Member(
                "clientName", .nullable(.string), required: true,
                "initialize's clientInfo.name; null before initialize or when not given"),
              Member(
                "pid", .nullable(.integer), required: true,
                "the client's process (a shared daemon's forwarder); null for stdio"),
              Member("uptimeSeconds", .number, required: true),
              Member("requests", .integer, required: true, "requests received"),
              Member("inFlight", .integer, required: true, "requests running now"),
              Member("current", .boolean, required: true, "the session that asked"),
            ])),
          required: true)
      ])))

  static let method = Method.inline(contract) { _, context in
    let now = monotonicSeconds()
    let sessions = context.daemon.services.sessions.all.map { session -> JSON in
      [
        "number": JSON(session.number),
        "clientName": session.clientName.map { JSON($0) } ?? .null,
        "pid": session.peerProcess.map { JSON(Int($0)) } ?? .null,
        "uptimeSeconds": JSON(((now - session.startedAt) * 1000).rounded() / 1000),
        "requests": JSON(session.requests.load(ordering: .relaxed)),
        "inFlight": JSON(session.inFlight.load(ordering: .relaxed)),
        "current": JSON(session === context.session),
      ]
    }
    return ["sessions": .array(sessions)]
  }
}
