import Protocol

/// One client's session: it classifies each incoming message, enforces the
/// lifecycle, runs handlers, and guarantees every request exactly one reply —
/// also when it fails, is cancelled, or races with its own cancellation.
///
/// `receive` is called from one thread (the stdin reader) in arrival order;
/// replies of concurrent handlers arrive from any thread.
///
/// `@unchecked Sendable`: `state` is only touched while holding `lock`.
final class Connection: @unchecked Sendable {
  private enum Lifecycle {
    case uninitialized, running, shuttingDown
  }

  /// A request whose handler runs as a task.
  private struct Running {
    let id: RequestID
    let target: ReplyTarget
    var task: Task<Void, Never>?
    /// False while the request waits for its lane; then a cancellation is answered at once.
    var started = false
  }

  private struct State {
    /// Where the session is in initialize → shutdown → exit.
    var lifecycle = Lifecycle.uninitialized
    /// Tasks' requests by sequence number (ids may repeat; sequence numbers don't).
    var running: [UInt64: Running] = [:]
    /// The next sequence number.
    var nextSequence: UInt64 = 0
    /// Replies taken out of `running` and not yet handed to the sink; the
    /// connection is idle only when this is 0 too, so end of input never
    /// closes the outbox in front of a reply.
    var repliesBeingSent = 0
  }

  /// Guards `state`; its condition wakes the reader when a slot frees up.
  private let lock = ConditionLock()
  private var state = State()

  private let sink: any MessageSink
  let daemon: DaemonContext
  private let methods: [String: Method]
  private let lanes = SerialLanes()
  /// Called for `exit`, with the status the contract gives.
  private let onExit: @Sendable (Int32) -> Void

  init(
    sink: any MessageSink, daemon: DaemonContext, methods: [Method],
    onExit: @escaping @Sendable (Int32) -> Void
  ) {
    self.sink = sink
    self.daemon = daemon
    self.methods = Dictionary(
      methods.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.onExit = onExit
  }

  // MARK: - Incoming

  /// Handles one framed message body.
  func receive(_ body: UnsafeBufferPointer<UInt8>) {
    let json: JSON
    do {
      json = try JSONParser.parse(body, maxDepth: daemon.configuration.maxDepth)
    } catch {
      daemon.statistics.count(.parseError)
      send(.error(.parseError(error.description)), id: .null, to: .single, wake: false)
      return
    }
    guard case .array(let elements) = json else {
      handle(IncomingMessage(json), target: .single)
      return
    }
    guard !elements.isEmpty else {
      send(.error(.invalidRequest("empty batch")), id: .null, to: .single, wake: false)
      return
    }
    let batch = BatchReply(count: elements.count, sink: sink)
    for (index, element) in elements.enumerated() {
      handle(IncomingMessage(element), target: .batch(batch, index: index))
    }
  }

  /// Answers a message the framing layer could not delimit.
  func receiveFramingError(_ reason: String) {
    daemon.statistics.count(.parseError)
    send(.error(.parseError(reason)), id: .null, to: .single, wake: false)
  }

  private func handle(_ message: IncomingMessage, target: ReplyTarget) {
    switch message {
    case .request(let id, let method, let params):
      daemon.statistics.count(.received)
      handleRequest(id: id, method: method, params: params, target: target)
    case .notification(let method, let params):
      skip(target)
      handleNotification(method: method, params: params)
    case .response(let id):
      skip(target)
      Log.debug("ignored a response: the daemon sends no requests", ["request.id": "\(id)"])
    case .invalid(let id, let error):
      daemon.statistics.count(.received)
      send(.error(error), id: id, to: target, wake: false)
    }
  }

  private func handleNotification(method: String, params: JSON?) {
    switch method {
    case "exit":
      let lifecycle = lock.withLock { state.lifecycle }
      onExit(lifecycle == .shuttingDown ? 0 : 1)
    case "$/cancelRequest":
      guard let idValue = params?["id"], let id = RequestID(idValue) else { return }
      cancel(id)
    case "initialized":
      break
    default:
      Log.debug("ignored a notification", ["rpc.method": method])
    }
  }

  private func handleRequest(id: RequestID, method: String, params: JSON?, target: ReplyTarget) {
    let lifecycle = lock.withLock { state.lifecycle }
    switch (method, lifecycle) {
    case ("initialize", .uninitialized):
      let reply: Reply
      do {
        reply = .result(try daemon.initialize(params))
        lock.withLock { state.lifecycle = .running }
      } catch {
        reply = .error(wireError(error, method: method))
      }
      send(reply, id: id, to: target, wake: false)
      return
    case ("initialize", _):
      send(
        .error(.invalidRequest("initialize was already received")), id: id, to: target, wake: false)
      return
    case (_, .uninitialized):
      send(.error(.serverNotInitialized), id: id, to: target, wake: false)
      return
    case (_, .shuttingDown):
      send(.error(.invalidRequest("the server is shutting down")), id: id, to: target, wake: false)
      return
    case ("shutdown", .running):
      lock.withLock { state.lifecycle = .shuttingDown }
      send(.result(.null), id: id, to: target, wake: false)
      return
    case (_, .running):
      break
    }
    guard let handler = methods[method] else {
      send(.error(.methodNotFound(method)), id: id, to: target, wake: false)
      return
    }
    let notify: @Sendable (String, JSON?) -> Void = { [sink] method, params in
      var body: [UInt8] = []
      OutgoingMessage.notification(method: method, params: params, into: &body)
      sink.send(body)
    }
    let context = RequestContext(
      id: id, method: method, daemon: daemon, notify: notify,
      progress: ProgressReporter(params: params, notify: notify))
    switch handler.body {
    case .inline(let body):
      let reply: Reply
      do {
        reply = .result(try body(params, context))
      } catch {
        reply = .error(wireError(error, method: method))
      }
      send(reply, id: id, to: target, wake: false)
    case .task(let body):
      let sequence = register(id: id, target: target)
      let work: @Sendable () async -> Void = { [self] in
        guard start(sequence) else { return }
        let reply: Reply
        do {
          reply = .result(try await body(params, context))
        } catch {
          reply = .error(wireError(error, method: method))
        }
        finish(sequence, reply)
      }
      let task =
        handler.lane?(params).map { lanes.enqueue(method + "\u{0}" + $0, work) }
        ?? Task(operation: work)
      attach(task, to: sequence)
    }
  }

  // MARK: - Requests in flight

  private func register(id: RequestID, target: ReplyTarget) -> UInt64 {
    lock.withLock {
      state.nextSequence += 1
      state.running[state.nextSequence] = Running(id: id, target: target, task: nil)
      daemon.statistics.inFlight.add(1, ordering: .relaxed)
      return state.nextSequence
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

  private func attach(_ task: Task<Void, Never>, to sequence: UInt64) {
    lock.withLock { state.running[sequence]?.task = task }
  }

  /// Sends a request's reply unless it was already sent (by the handler, or by
  /// the cancellation fallback): the first caller wins, later ones do nothing.
  private func finish(_ sequence: UInt64, _ reply: Reply) {
    let entry = lock.withLock {
      let entry = state.running.removeValue(forKey: sequence)
      if entry != nil { state.repliesBeingSent += 1 }
      return entry
    }
    guard let entry else { return }
    daemon.statistics.inFlight.subtract(1, ordering: .relaxed)
    send(reply, id: entry.id, to: entry.target, wake: true)
    lock.withLock {
      state.repliesBeingSent -= 1
      lock.broadcast()
    }
  }

  /// How long a cancelled handler may take to wind down before the daemon
  /// answers -32800 for it anyway.
  static let cancellationGrace = Duration.milliseconds(500)

  /// `$/cancelRequest`: cancels the running requests with this id; an unknown
  /// or finished id is ignored. Each is answered when its handler ends (with
  /// -32800, or its result if it finished first), so the notifications it
  /// sends while winding down (`loading: false`) still precede its reply. A
  /// handler that ignores cancellation is answered -32800 after a short
  /// grace; one that has not started yet (waiting for its lane) at once.
  func cancel(_ id: RequestID) {
    let cancelled = lock.withLock {
      state.running.filter { $0.value.id == id }
        .map { (sequence: $0.key, task: $0.value.task, started: $0.value.started) }
    }
    for (sequence, task, started) in cancelled {
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

  /// Blocks the reader while `maxInFlight` requests run, so a client that
  /// floods the daemon is slowed down instead of growing its memory.
  func waitForCapacity() {
    let limit = daemon.configuration.maxInFlight
    lock.withLock {
      while state.running.count >= limit { lock.wait() }
    }
  }

  /// Waits up to `timeout` seconds for running requests to finish; false on time-out.
  @discardableResult
  func waitUntilIdle(timeout: Double) -> Bool {
    let limit = deadline(after: timeout)
    return lock.withLock {
      while !state.running.isEmpty || state.repliesBeingSent > 0 {
        guard lock.wait(until: limit) else { return false }
      }
      return true
    }
  }

  /// Cancels every running request (end of input after the grace period).
  func cancelAll() {
    let ids = lock.withLock { state.running.values.map(\.id) }
    for id in Set(ids) { cancel(id) }
  }

  // MARK: - Outgoing

  private func send(_ reply: Reply, id: RequestID, to target: ReplyTarget, wake: Bool) {
    switch reply {
    case .result: daemon.statistics.count(.succeeded)
    case .error(let error):
      daemon.statistics.count(error.code == RPCError.requestCancelledCode ? .cancelled : .failed)
    }
    var body: [UInt8] = []
    reply.write(id: id, into: &body)
    switch target {
    case .single: sink.send(body, wake: wake)
    case .batch(let batch, let index): batch.answer(index, with: body, wake: wake)
    }
  }

  private func skip(_ target: ReplyTarget) {
    if case .batch(let batch, let index) = target { batch.skip(index, wake: false) }
  }
}
