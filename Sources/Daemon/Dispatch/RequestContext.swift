import Protocol

/// What a handler gets besides its params: who asked, a way to notify the
/// client, progress reporting, and the daemon's shared state.
struct RequestContext: Sendable {
  let id: RequestID
  let method: String
  let daemon: DaemonContext
  /// The client's session: its feeds and device id.
  let session: Session
  /// The language of the session's error messages, read when an error is
  /// written (not for every request).
  let currentLocale: @Sendable () -> MessageLocale
  /// Sends a notification now: it precedes this request's response.
  let notify: @Sendable (_ method: String, _ params: JSON?) -> Void
  /// Sends a run of notifications, written as JSON texts, now, in order, in one write.
  var notifyAll: @Sendable (MessageRun) -> Void = { _ in }
  /// Set when the request carried `params.workDoneToken`.
  let progress: ProgressReporter?
  /// Lets the next request of this request's lane start before this one
  /// returns: call it once the request has taken effect, before a long wait
  /// that later requests may share. Does nothing without a lane.
  var leaveLane: @Sendable () -> Void = {}
  /// Sends the result now, before the handler returns (what it returns then
  /// is not sent): for a result that must be ordered with notifications that
  /// other tasks send, such as a feed's items and the feed's changes, which
  /// the feed engine sends in the one order it applies them.
  var reply: @Sendable (JSON) -> Void = { _ in }

  var locale: MessageLocale { currentLocale() }
}
