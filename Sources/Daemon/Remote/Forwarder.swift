import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// What a forwarder does once it handed its client's session to the shared
/// daemon (`SessionHandoff`): the daemon reads and writes the client's pipes
/// itself, so the forwarder only waits on the session's control line for
/// the status to exit with.
///
/// If the connection ends without one, the daemon died: the forwarder reads
/// the session's `WaitingRequestTable`, finishes a frame the daemon's death
/// cut short (so that what follows is read as messages of their own), and
/// answers each request that was still waiting with -32020 in the client's
/// framing and language; a new daemon starts for the next forwarder.
struct Forwarder {
  /// How a forwarded session ended.
  enum Outcome: Equatable, Sendable {
    /// The daemon ended the session and sent the status a daemon of the
    /// client's own would have exited with.
    case finished(status: Int32)
    /// The daemon closed the connection first, for `reason`; `failed`
    /// waiting requests were answered with -32020, `unrecorded` could not be.
    case daemonLost(reason: String, failed: Int, unrecorded: Int)
  }

  /// The session's control line: the connection to the daemon.
  let control: Int32
  /// The client's stdout, for the failure replies.
  let clientOutput: Int32
  /// The session's `WaitingRequestTable` file, if one could be made.
  let table: Int32?
  /// The framing of the failure replies when the daemon had not learned the client's.
  let framing: FramingMode
  /// Their language when the daemon had not recorded the session's.
  let locale: MessageLocale

  /// Waits until the session ends, and answers what waited if the daemon died.
  func run() -> Outcome {
    var status: UInt8 = 0
    while true {
      let count = read(control, &status, 1)
      if count < 0 && errno == EINTR { continue }
      if count == 1 { return .finished(status: Int32(status)) }
      let reason =
        count < 0 ? "reading it failed: \(String(cString: strerror(errno)))" : "end of stream"
      return daemonLost(reason: reason)
    }
  }

  private func daemonLost(reason: String) -> Outcome {
    guard let table, let snapshot = WaitingRequestTable.Snapshot.read(table) else {
      return .daemonLost(reason: reason, failed: 0, unrecorded: 0)
    }
    let output = Self.failureOutput(snapshot, framing: framing, locale: locale)
    _ = output.bytes.withUnsafeBytes { writeAll(clientOutput, $0) }
    return .daemonLost(reason: reason, failed: output.failed, unrecorded: snapshot.unrecorded)
  }

  /// What the client is sent when the daemon died: the rest of a frame cut
  /// short (spaces, or a line's end: the client reads one malformed message
  /// instead of taking the replies that follow for part of it), then one
  /// -32020 per waiting request.
  static func failureOutput(
    _ snapshot: WaitingRequestTable.Snapshot, framing setting: FramingMode,
    locale fallback: MessageLocale
  ) -> (bytes: [UInt8], failed: Int) {
    let framing: Framing
    if let known = snapshot.framing {
      framing = known
    } else if case .fixed(let fixed) = setting {
      framing = fixed
    } else {
      framing = .ndjson
    }
    var bytes: [UInt8] = []
    if snapshot.frameEnd > snapshot.committed {
      switch framing {
      case .lsp:
        bytes = Array(
          repeating: UInt8(ascii: " "), count: Int(snapshot.frameEnd - snapshot.committed))
      case .ndjson:
        bytes = [UInt8(ascii: "\n")]
      }
    }
    let pending = PendingRequests(ids: snapshot.waiting, locale: snapshot.locale ?? fallback)
    bytes += pending.failureReplies(framing: framing)
    return (bytes, pending.count)
  }
}
