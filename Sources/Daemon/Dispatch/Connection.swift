import Protocol
import Services

/// One client's session: it classifies each incoming message, enforces the
/// lifecycle, runs handlers, and guarantees every request exactly one reply —
/// also when it fails, is cancelled, or races with its own cancellation.
///
/// Requests pass through a queue in arrival order and start while fewer than
/// `maxInFlight` handlers run; notifications (`$/cancelRequest`, `exit`) act
/// at once, so a client can cancel even when every slot is taken. The reader
/// stops reading only when the queue itself is full.
///
/// `receive` is called from one thread (the message reader); replies of
/// concurrent handlers arrive from any thread.
///
/// `@unchecked Sendable`: `state` is only touched while holding `lock`.
final class Connection: @unchecked Sendable {
  private enum Lifecycle {
    case uninitialized, running, shuttingDown
  }

  /// A request waiting in the queue.
  private struct Queued {
    let id: RequestID
    let method: String
    let params: JSON?
    let target: ReplyTarget
    /// True when its handler runs as a task and so needs a slot.
    let needsSlot: Bool
    /// When its bytes arrived (`monotonicNanoseconds`), for `MethodTimings`.
    let received: UInt64
    /// No more input was waiting behind it when it was read (not a pipelined burst).
    let nothingBehind: Bool
  }

  /// A request whose handler runs as a task.
  private struct Running {
    let id: RequestID
    let target: ReplyTarget
    let method: String
    let received: UInt64
    var task: Task<Void, Never>?
    /// False while the request waits for its lane; then a cancellation is answered at once.
    var started = false
  }

  private struct State {
    /// Where the session is in initialize → shutdown → exit.
    var lifecycle = Lifecycle.uninitialized
    /// Requests received and not started, oldest first.
    var queue: [Queued] = []
    /// The index of the oldest request in `queue` (the array is compacted now and then).
    var queueHead = 0
    /// True while a thread takes requests off the queue; one at a time keeps arrival order.
    var draining = false
    /// Tasks' requests by sequence number (ids may repeat; sequence numbers don't).
    var running: [UInt64: Running] = [:]
    /// The next sequence number.
    var nextSequence: UInt64 = 0
    /// Replies taken out of `running` and not yet handed to the sink; the
    /// connection is idle only when this is 0 too, so end of input never
    /// closes the outbox in front of a reply.
    var repliesBeingSent = 0
    /// A `shutdown` waiting for the requests before it to be answered, so
    /// that the `exit` after its reply drops no reply.
    var pendingShutdown: (id: RequestID, target: ReplyTarget)?

    var queuedCount: Int { queue.count - queueHead }
  }

  /// Guards `state`; its condition wakes the reader when there is room.
  private let lock = ConditionLock()
  private var state: State

  private let sink: any MessageSink
  let daemon: DaemonContext
  /// This client's feeds, device id and language, in the daemon's registry until `end()`.
  let session: Session
  private let methods: [String: Method]
  private let lanes = SerialLanes()
  /// The language of error messages until `initialize` names one: a
  /// forwarded session's client's, else the daemon's.
  private let startLocale: MessageLocale
  /// Called for `exit`, with the status the contract gives.
  private let onExit: @Sendable (Int32) -> Void
  /// Handlers running as tasks at once, at most.
  private let maxInFlight: Int
  /// Requests waiting to start, at most, before the reader stops reading.
  private let maxQueued: Int

  /// How long a cancelled handler may take to wind down before the daemon
  /// answers -32800 for it anyway.
  static let cancellationGrace = Duration.milliseconds(500)
  /// How long `exit` after `shutdown` waits for earlier requests to be answered.
  static let exitGrace = 10.0

  init(
    sink: any MessageSink, daemon: DaemonContext, methods: [Method], peerProcess: Int32? = nil,
    locale: MessageLocale? = nil, onExit: @escaping @Sendable (Int32) -> Void
  ) {
    self.sink = sink
    self.daemon = daemon
    startLocale = locale ?? daemon.defaultLocale
    session = daemon.services.sessions.open(
      sink: sink, maxOpenFeeds: daemon.configuration.maxOpenFeeds, locale: startLocale,
      peerProcess: peerProcess)
    self.methods = Dictionary(
      methods.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.onExit = onExit
    maxInFlight = daemon.configuration.maxInFlight
    maxQueued = daemon.configuration.maxInFlight
    state = State()
  }

  /// The language of the session's error messages.
  var locale: MessageLocale { session.locale }

  /// Ends the session once its input has ended: requests still running get
  /// `grace` seconds to answer and are cancelled after it; then its feeds
  /// close (their fetches stop) and the daemon's notifications stop reaching it.
  func endAfterInput(grace: Double) {
    if !waitUntilIdle(timeout: grace) {
      Log.warn("requests still running after the end of input; cancelling them")
      cancelAll()
    }
    close()
  }

  /// Ends a forwarded session at once (`exit`, or its client or its
  /// forwarder gone), as the end of a daemon of the client's own would end
  /// it: what still runs is cancelled, its feeds close.
  func endNow() {
    cancelAll()
    close()
  }

  /// Closes the session's feeds and takes it out of the daemon's registry.
  private func close() {
    runBlocking { [self] in
      await session.feeds.closeAll()
      daemon.services.sessions.close(session)
    }
  }

  // MARK: - Incoming

  /// Handles one framed message body; `moreInput` when more bytes already
  /// wait behind it (a pipelined client).
  func receive(_ body: UnsafeBufferPointer<UInt8>, moreInput: Bool = false) {
    let received = monotonicNanoseconds()
    let json: JSON
    do {
      json = try JSONParser.parse(body, maxDepth: daemon.configuration.maxDepth)
    } catch {
      daemon.statistics.count(.parseError)
      send(.error(.parseError(error.description)), id: .null, to: .single(.untracked), wake: false)
      return
    }
    guard case .array(let elements) = json else {
      handle(
        IncomingMessage(json), target: .single(.untracked), received: received,
        nothingBehind: !moreInput)
      drain(wake: false)
      return
    }
    guard !elements.isEmpty else {
      send(.error(.invalidRequest("empty batch")), id: .null, to: .single(.untracked), wake: false)
      return
    }
    let batch = BatchReply(count: elements.count, sink: sink)
    for (index, element) in elements.enumerated() {
      handle(
        IncomingMessage(element), target: .batch(batch, index: index, ticket: .untracked),
        received: received,
        nothingBehind: false)
    }
    drain(wake: false)
  }

  /// Answers a message the framing layer could not delimit.
  func receiveFramingError(_ reason: String) {
    daemon.statistics.count(.parseError)
    send(.error(.parseError(reason)), id: .null, to: .single(.untracked), wake: false)
  }

  private func handle(
    _ message: IncomingMessage, target: ReplyTarget, received: UInt64, nothingBehind: Bool
  ) {
    switch message {
    case .request(let id, let method, let params):
      let target = target.with(sink.expectReply(to: id))
      daemon.statistics.count(.received)
      session.requests.add(1, ordering: .relaxed)
      let needsSlot: Bool =
        switch methods[method]?.body {
        case .task, .encodingTask: true
        case .inline, nil: false
        }
      lock.withLock {
        state.queue.append(
          Queued(
            id: id, method: method, params: params, target: target, needsSlot: needsSlot,
            received: received, nothingBehind: nothingBehind))
      }
    case .notification(let method, let params):
      skip(target)
      handleNotification(method: method, params: params)
    case .response(let id):
      skip(target)
      Log.debug("ignored a response: the daemon sends no requests", ["request.id": "\(id)"])
    case .invalid(let id, let error):
      let target = target.with(sink.expectReply(to: id))
      daemon.statistics.count(.received)
      session.requests.add(1, ordering: .relaxed)
      send(.error(error), id: id, to: target, wake: false)
    }
  }

  private func handleNotification(method: String, params: JSON?) {
    switch method {
    case "exit":
      // A `shutdown` still waiting in the queue behind other requests was
      // received all the same (LSP: exit 0 "if the shutdown request has been
      // received before").
      let shutdownReceived = lock.withLock {
        state.lifecycle == .shuttingDown
          || (state.lifecycle == .running
            && state.queue[state.queueHead...].contains { $0.method == "shutdown" })
      }
      guard shutdownReceived else {
        onExit(1)  // An abnormal end: no waiting.
        return
      }
      // A client that pipelines `shutdown` and `exit` still gets every reply
      // it asked for before them, the shutdown's last.
      waitUntilIdle(timeout: Self.exitGrace)
      onExit(lock.withLock { state.lifecycle == .shuttingDown } ? 0 : 1)
    case "$/cancelRequest":
      guard let idValue = params?["id"], let id = RequestID(idValue) else { return }
      cancel(id)
    case "initialized":
      break
    default:
      Log.debug("ignored a notification", ["rpc.method": method])
    }
  }

  // MARK: - The queue

  /// Starts queued requests, oldest first, while slots are free. One thread
  /// drains at a time; a thread that finds another draining leaves it the work.
  private func drain(wake: Bool) {
    while true {
      let next: Queued? = lock.withLock {
        if state.draining { return nil }
        guard state.queuedCount > 0 else { return nil }
        let head = state.queue[state.queueHead]
        if head.needsSlot && state.running.count >= maxInFlight { return nil }
        state.draining = true
        state.queueHead += 1
        if state.queueHead > 64 && state.queueHead * 2 > state.queue.count {
          state.queue.removeFirst(state.queueHead)
          state.queueHead = 0
        }
        lock.broadcast()  // room in the queue for the reader
        return head
      }
      guard let next else { return }
      dispatch(next, wake: wake)
      lock.withLock { state.draining = false }
    }
  }

  private func dispatch(_ request: Queued, wake: Bool) {
    let (id, method, params, target) = (request.id, request.method, request.params, request.target)
    let lifecycle = lock.withLock { state.lifecycle }
    switch (method, lifecycle) {
    case ("initialize", .uninitialized):
      let reply: Reply
      do {
        let client = try daemon.initialize(params, defaultLocale: startLocale)
        session.clientIdentity.set(client.id)
        session.didInitialize(clientName: client.name, locale: client.locale)
        sink.noteLocale(client.locale)
        reply = .result(client.result)
        lock.withLock { state.lifecycle = .running }
      } catch {
        reply = .error(wireError(error, method: method))
      }
      if case .result = reply { daemon.services.startWatching() }
      send(reply, id: id, to: target, wake: wake)
      return
    case ("initialize", _):
      send(
        .error(.invalidRequest("initialize was already received")), id: id, to: target, wake: wake)
      return
    case (_, .uninitialized):
      send(.error(.serverNotInitialized), id: id, to: target, wake: wake)
      return
    case (_, .shuttingDown):
      send(.error(.invalidRequest("the server is shutting down")), id: id, to: target, wake: wake)
      return
    case ("shutdown", .running):
      let answerNow = lock.withLock {
        state.lifecycle = .shuttingDown
        guard state.running.isEmpty else {
          state.pendingShutdown = (id, target)
          return false
        }
        return true
      }
      if answerNow { send(.result(.null), id: id, to: target, wake: wake) }
      return
    case (_, .running):
      break
    }
    guard let handler = methods[method] else {
      send(.error(.methodNotFound(method)), id: id, to: target, wake: wake)
      return
    }
    let lane = handler.lane?(params).map { (key: $0, turn: LaneTurn()) }
    let context = RequestContext(
      id: id, method: method, daemon: daemon, session: session, connection: self, params: params,
      lane: lane)
    if let now = handler.now, lane.map({ lanes.isIdle($0.key) }) ?? true {
      // A local function, not a closure value: nothing to allocate.
      func answer(_ reply: Reply) {
        daemon.timings.record(method, since: request.received)
        send(reply, id: id, to: target, wake: wake)
      }
      do {
        if try now(params, context, answer) { return }
      } catch {
        answer(.error(wireError(error, method: method)))
        return
      }
    }
    switch handler.body {
    case .inline(let body):
      let reply: Reply
      do {
        reply = .result(try body(params, context))
      } catch {
        reply = .error(wireError(error, method: method))
      }
      // Recorded before the reply goes out, so a status read after it counts it.
      daemon.timings.record(method, since: request.received)
      send(reply, id: id, to: target, wake: wake)
    case .task(let body):
      let sequence = RequestSequence()
      let context = context.numbered(by: sequence)
      runTask(request, sequence, lane: lane, startsOnReader: handler.startsOnReader) {
        .result(try await body(params, context))
      }
    case .encodingTask(let body):
      let sequence = RequestSequence()
      let context = context.numbered(by: sequence)
      runTask(request, sequence, lane: lane, startsOnReader: handler.startsOnReader) {
        .encodedResult(try await body(params, context))
      }
    }
  }

  /// Starts a request's handler as a task (behind its lane, if any); its
  /// reply, or the error it threw, is sent when it ends.
  ///
  /// A task normally starts on a thread of Swift's pool, and waking one can
  /// cost as much as a warm `places/search` takes (Benchmarks/README.md). So a method
  /// that `startsOnReader` runs its handler right here (on the reader, or on
  /// the pool thread that just freed a slot) until it first suspends, when
  /// that costs nothing else: the request came alone (a pipelined burst is
  /// spread over the pool instead, so its requests run in parallel) and no
  /// other handler is running.
  private func runTask(
    _ request: Queued, _ number: RequestSequence, lane: (key: String, turn: LaneTurn)?,
    startsOnReader: Bool, _ body: @escaping @Sendable () async throws -> Reply
  ) {
    let method = request.method
    let (sequence, runsAlone) = register(request)
    number.number = sequence
    let work: @Sendable () async -> Void = { [self] in
      guard start(sequence) else { return }
      let reply: Reply
      do {
        reply = try await Session.$current.withValue(session) { try await body() }
      } catch {
        reply = .error(wireError(error, method: method))
      }
      finish(sequence, reply)
    }
    let task: Task<Void, Never>
    if let lane {
      task = lanes.enqueue(lane.key, turn: lane.turn, work)
    } else if startsOnReader && request.nothingBehind && runsAlone {
      task = Task.immediate(operation: work)
    } else {
      task = Task(operation: work)
    }
    lock.withLock { state.running[sequence]?.task = task }
  }

  // MARK: - Requests in flight

  /// Adds the request to those running; also tells whether it is the only one.
  private func register(_ request: Queued) -> (sequence: UInt64, runsAlone: Bool) {
    lock.withLock {
      state.nextSequence += 1
      state.running[state.nextSequence] = Running(
        id: request.id, target: request.target, method: request.method,
        received: request.received, task: nil)
      daemon.statistics.inFlight.add(1, ordering: .relaxed)
      session.inFlight.add(1, ordering: .relaxed)
      return (state.nextSequence, state.running.count == 1)
    }
  }

  /// Marks a request's handler as started; false when it was cancelled while waiting.
  private func start(_ sequence: UInt64) -> Bool {
    lock.withLock {
      guard state.running[sequence] != nil else { return false }
      state.running[sequence]?.started = true
      return true
    }
  }

  /// Sends a notification now: it precedes the replies sent after it.
  func notify(_ method: String, _ params: JSON?) {
    var body: [UInt8] = []
    OutgoingMessage.notification(method: method, params: params, into: &body)
    sink.send(body)
  }

  /// Sends a request's reply unless it was already sent (by the handler, or by
  /// the cancellation fallback): the first caller wins, later ones do nothing.
  /// The freed slot goes to the next queued request.
  func finish(_ sequence: UInt64, _ reply: Reply) {
    let entry = lock.withLock {
      let entry = state.running.removeValue(forKey: sequence)
      if entry != nil { state.repliesBeingSent += 1 }
      return entry
    }
    guard let entry else { return }
    daemon.statistics.inFlight.subtract(1, ordering: .relaxed)
    session.inFlight.subtract(1, ordering: .relaxed)
    daemon.timings.record(entry.method, since: entry.received)
    send(reply, id: entry.id, to: entry.target, wake: true)
    let shutdown = lock.withLock { () -> (id: RequestID, target: ReplyTarget)? in
      if state.running.isEmpty, let shutdown = state.pendingShutdown {
        // Still counted as a reply being sent, so nobody sees the connection idle before it.
        state.pendingShutdown = nil
        return shutdown
      }
      state.repliesBeingSent -= 1
      lock.broadcast()
      return nil
    }
    if let shutdown {
      send(.result(.null), id: shutdown.id, to: shutdown.target, wake: true)
      lock.withLock {
        state.repliesBeingSent -= 1
        lock.broadcast()
      }
    }
    drain(wake: true)
  }

  /// `$/cancelRequest`: cancels the requests with this id; an unknown or
  /// finished id is ignored. A queued request, or one waiting for its lane,
  /// is answered -32800 at once. A running one is answered when its handler
  /// ends (with -32800, or its result if it finished first), so what it sends
  /// while winding down (`loading: false`) still precedes its reply; a handler
  /// that ignores cancellation is answered -32800 after a short grace.
  func cancel(_ id: RequestID) {
    let (queued, running) = lock.withLock {
      let queued = state.queue[state.queueHead...].filter { $0.id == id }
      if !queued.isEmpty {
        let kept = state.queue[state.queueHead...].filter { $0.id != id }
        state.queue.removeSubrange(state.queueHead...)
        state.queue += kept
        lock.broadcast()
      }
      let running = state.running.filter { $0.value.id == id }
        .map { (sequence: $0.key, task: $0.value.task, started: $0.value.started) }
      return (queued, running)
    }
    for request in queued {
      send(.error(.requestCancelled), id: request.id, to: request.target, wake: true)
    }
    for (sequence, task, started) in running {
      task?.cancel()
      guard started else {
        finish(sequence, .error(.requestCancelled))
        continue
      }
      Task {
        try? await Task.sleep(for: Self.cancellationGrace)
        self.finish(sequence, .error(.requestCancelled))
      }
    }
  }

  /// Requests running as tasks now.
  var inFlightCount: Int { lock.withLock { state.running.count } }

  /// Blocks the reader while the queue of requests waiting for a slot is
  /// full, so a client that floods the daemon is slowed down instead of
  /// growing its memory.
  func waitForRoom() {
    lock.withLock {
      while state.queuedCount >= maxQueued { lock.wait() }
    }
  }

  /// Waits up to `timeout` seconds for queued and running requests to be
  /// answered; false on time-out.
  @discardableResult
  func waitUntilIdle(timeout: Double) -> Bool {
    let limit = deadline(after: timeout)
    return lock.withLock {
      while state.queuedCount > 0 || !state.running.isEmpty || state.repliesBeingSent > 0
        || state.pendingShutdown != nil
      {
        guard lock.wait(until: limit) else { return false }
      }
      return true
    }
  }

  /// Cancels every queued and running request (end of input after the grace period).
  func cancelAll() {
    let ids = lock.withLock {
      state.running.values.map(\.id) + state.queue[state.queueHead...].map(\.id)
    }
    for id in Set(ids) { cancel(id) }
  }

  // MARK: - Outgoing

  private func send(_ reply: Reply, id: RequestID, to target: ReplyTarget, wake: Bool) {
    switch reply {
    case .result, .encodedResult: daemon.statistics.count(.succeeded)
    case .error(let error):
      daemon.statistics.count(error.code == RPCError.requestCancelledCode ? .cancelled : .failed)
    }
    var body: [UInt8] = []
    reply.write(id: id, locale: locale, into: &body)
    switch target {
    case .single(let ticket): sink.send(body, replyingTo: ticket, wake: wake)
    case .batch(let batch, let index, let ticket):
      batch.answer(index, with: body, ticket: ticket, wake: wake)
    }
  }

  private func skip(_ target: ReplyTarget) {
    if case .batch(let batch, let index, _) = target { batch.skip(index, wake: false) }
  }
}
