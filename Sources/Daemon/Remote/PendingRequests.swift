import Protocol

/// The requests a forwarded session's client still waited on when the
/// shared daemon stopped (read from its `WaitingRequestTable`): each gets an
/// error it can act on (retry: the next forwarder starts a new daemon)
/// instead of waiting forever.
struct PendingRequests: Sendable {
  /// The waiting ids, the oldest first; a reused id as often as it waits.
  let ids: [RequestID]
  /// The language of the failure replies: the session's.
  let locale: MessageLocale

  init(ids: [RequestID], locale: MessageLocale = .english) {
    self.ids = ids
    self.locale = locale
  }

  var count: Int { ids.count }

  var isEmpty: Bool { ids.isEmpty }

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
