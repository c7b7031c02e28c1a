import Protocol
import Services
import Synchronization

/// One client's share of the daemon: its feeds, its device id, its language
/// and where its notifications go. A stdio daemon has one session; a shared
/// daemon (`serve --listen`) one per connection, while the services (catalog,
/// place index, photo index) belong to the `ServiceHub` all sessions share.
final class Session: Sendable {
  /// Numbers sessions from 1 in the order they started, for logs and `daemon/sessions`.
  let number: Int
  /// The session's feeds: another session never sees nor closes them.
  let feeds: FeedEngine
  /// The per-device UUID the product upstream receives; set by `initialize`.
  let clientIdentity = ClientIdentity()
  /// The client process, when the transport knows it (a socket's peer).
  let peerProcess: Int32?
  /// When the session started (monotonic seconds).
  let startedAt = monotonicSeconds()
  /// Requests received and answered, for `daemon/sessions`.
  let requests = Atomic(0)
  let inFlight = Atomic(0)
  private let sink: any MessageSink
  private let details: Mutex<Details>

  private struct Details {
    var locale: MessageLocale
    var clientName: String?
    var initialized = false
  }

  init(
    number: Int, sink: any MessageSink, maxOpenFeeds: Int, locale: MessageLocale,
    peerProcess: Int32? = nil
  ) {
    details = Mutex(Details(locale: locale))
    self.number = number
    self.sink = sink
    self.peerProcess = peerProcess
    feeds = FeedEngine(maxOpenFeeds: maxOpenFeeds)
  }

  /// The language of error messages: `initialize`'s choice, until then the daemon's.
  var locale: MessageLocale { details.withLock { $0.locale } }
  var clientName: String? { details.withLock { $0.clientName } }
  /// True once `initialize` was answered: only then does the session get
  /// notifications nobody asked for (changes made by other sessions and daemons).
  var initialized: Bool { details.withLock { $0.initialized } }

  func didInitialize(clientName: String?, locale: MessageLocale) {
    details.withLock {
      $0.clientName = clientName
      $0.locale = locale
      $0.initialized = true
    }
  }

  /// Sends a notification to this session's client now.
  func notify(_ method: String, _ params: JSON?) {
    var body: [UInt8] = []
    OutgoingMessage.notification(method: method, params: params, into: &body)
    sink.send(body)
  }

  /// Bytes waiting for this session's client.
  var queuedOutputBytes: Int { sink.queuedBytes }

  /// Sends a run of written notifications in one write.
  func notifyAll(_ run: MessageRun) {
    sink.send(all: run)
  }

  /// The session that runs the current request, for what a shared service
  /// needs of the client behind it (the product upstream's device id).
  @TaskLocal static var current: Session?
}

/// The sessions a daemon serves now.
final class SessionRegistry: Sendable {
  private let state = Mutex(State())

  private struct State {
    var sessions: [Session] = []
    var nextNumber = 1
  }

  /// Makes a session and adds it.
  func open(
    sink: any MessageSink, maxOpenFeeds: Int, locale: MessageLocale, peerProcess: Int32? = nil
  ) -> Session {
    state.withLock {
      let session = Session(
        number: $0.nextNumber, sink: sink, maxOpenFeeds: maxOpenFeeds, locale: locale,
        peerProcess: peerProcess)
      $0.nextNumber += 1
      $0.sessions.append(session)
      return session
    }
  }

  /// Removes a session: the daemon's notifications stop reaching it.
  func close(_ session: Session) {
    state.withLock { $0.sessions.removeAll { $0 === session } }
  }

  var all: [Session] { state.withLock { $0.sessions } }
  /// The sessions past `initialize`: those that take notifications.
  var initialized: [Session] { all.filter(\.initialized) }
}
