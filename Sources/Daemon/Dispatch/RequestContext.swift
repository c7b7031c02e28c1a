import Protocol

/// What a handler gets besides its params: who asked, a way to notify the
/// client, progress reporting, and the daemon's shared state.
///
/// Made for every request, so it holds plain values and works through the
/// connection, instead of a closure (a heap allocation) for each of its ways
/// to reach the client: most requests are reads that use none of them.
struct RequestContext: Sendable {
  let id: RequestID
  let method: String
  let daemon: DaemonContext
  /// The client's session: its feeds and device id.
  let session: Session
  /// The connection the request came in on.
  let connection: Connection
  /// The request's params, for `progress`.
  let params: JSON?
  /// The request's lane and its turn in it; nil without one.
  let lane: (key: String, turn: LaneTurn)?
  /// The request's number among the connection's tasks, for `reply`: given
  /// to a request that runs as a task (`numbered`).
  private(set) var sequence: RequestSequence?

  init(
    id: RequestID, method: String, daemon: DaemonContext, session: Session,
    connection: Connection, params: JSON?, lane: (key: String, turn: LaneTurn)?
  ) {
    (self.id, self.method, self.daemon, self.session) = (id, method, daemon, session)
    (self.connection, self.params, self.lane) = (connection, params, lane)
  }

  /// This context, for a request that runs as a task numbered by `sequence`.
  func numbered(by sequence: RequestSequence) -> RequestContext {
    var numbered = self
    numbered.sequence = sequence
    return numbered
  }

  /// The language of the session's error messages, read when an error is
  /// written (not for every request).
  var locale: MessageLocale { connection.locale }

  /// Sends a notification now: it precedes this request's response.
  func notify(_ method: String, _ params: JSON?) {
    connection.notify(method, params)
  }

  /// Set when the request carried `params.workDoneToken`.
  var progress: ProgressReporter? {
    ProgressReporter(params: params) { [connection] in connection.notify($0, $1) }
  }

  /// Lets the next request of this request's lane start before this one
  /// returns: call it once the request has taken effect, before a long wait
  /// that later requests may share. Does nothing without a lane.
  func leaveLane() {
    lane?.turn.leave()
  }

  /// Sends the result now, before the handler returns (what it returns then
  /// is not sent): for a result that must be ordered with notifications that
  /// other tasks send, such as a feed's items and the feed's changes, which
  /// the feed engine sends in the one order it applies them.
  func reply(_ result: JSON) {
    if let number = sequence?.number { connection.finish(number, .result(result)) }
  }
}
