import Protocol

/// The requests a forwarder's client still waits on, so that when the shared
/// daemon stops before answering them each gets an error it can act on
/// (retry: the next forwarder starts a new daemon) instead of waiting forever.
///
/// Fed with what `Envelopes` read: ids are added as the client's requests
/// go to the daemon, and removed as the daemon's responses come back.
struct PendingRequests: Sendable {
  /// How often an id waits (a client may reuse one) and when it was first sent.
  private struct Entry: Sendable {
    var count: Int
    var order: UInt64
  }

  /// The ids waiting for a response.
  private var entries: [RequestID: Entry] = [:]
  /// Orders entries for the failure replies: the oldest request first.
  private var sent: UInt64 = 0
  /// How many requests wait, counting a reused id as often as it waits.
  private(set) var count = 0
  /// The client asked for `shutdown`: an `exit` after it ends the session with status 0.
  private(set) var shutdownRequested = false
  /// The client sent `exit`: the daemon ends the session, answering nothing more.
  private(set) var exitNotified = false
  /// The language of the failure replies: `initialize`'s `locale`, else the starting one.
  private(set) var locale: MessageLocale
  /// The client's framing, once its first bytes showed it.
  var framing: Framing?

  init(locale: MessageLocale = .english, framing: Framing? = nil) {
    self.locale = locale
    self.framing = framing
  }

  var isEmpty: Bool { count == 0 }

  /// Records what the client sent, before it is passed on: a response can
  /// then never arrive before its request was recorded.
  mutating func clientSent(_ envelopes: Envelopes) {
    for id in envelopes.requestIDs {
      entries[id, default: Entry(count: 0, order: sent)].count += 1
      sent += 1
      count += 1
    }
    if envelopes.shutdownRequested { shutdownRequested = true }
    if envelopes.exitNotified { exitNotified = true }
    if let tag = envelopes.locale, let chosen = MessageLocale(identifier: tag) { locale = chosen }
  }

  /// Records the responses the daemon sent.
  mutating func daemonSent(_ envelopes: Envelopes) {
    for id in envelopes.responseIDs {
      guard var entry = entries[id] else { continue }
      count -= 1
      entry.count -= 1
      entries[id] = entry.count == 0 ? nil : entry
    }
  }

  mutating func clientSent(body: [UInt8]) {
    clientSent(Self.read(body))
  }

  mutating func daemonSent(body: [UInt8]) {
    daemonSent(Self.read(body))
  }

  private static func read(_ body: [UInt8]) -> Envelopes {
    var envelopes = Envelopes()
    body.withUnsafeBufferPointer { envelopes.add($0) }
    return envelopes
  }

  /// The waiting ids, the oldest first; a reused id as often as it waits.
  var ids: [RequestID] {
    entries.sorted { $0.value.order < $1.value.order }
      .flatMap { repeatElement($0.key, count: $0.value.count) }
  }

  /// One error response per waiting request, the oldest first, framed for the client.
  func failureReplies(framing: Framing) -> [UInt8] {
    var output: [UInt8] = []
    var body: [UInt8] = []
    for id in ids {
      body.removeAll(keepingCapacity: true)
      OutgoingMessage.error(id: id, error: Self.daemonStopped, locale: locale, into: &body)
      framing.frame(body, into: &output)
    }
    return output
  }

  /// The shared daemon closed the connection with the request unanswered.
  /// Whether it ran is unknown (the daemon may have died in the middle), so
  /// only the client can decide to send it again.
  static let daemonStopped = RPCError(
    code: RPCError.upstreamUnavailableCode, message: daemonStoppedMessage,
    data: ["retryable": true, "reason": "shared daemon exited"])

  private static let daemonStoppedMessage: LocalizedText =
    "The shared catalogd stopped before answering; retry, and a new one will start."
}
