import Protocol

/// One JSON-RPC method the daemon serves: its name, how it runs, and which
/// requests must not overtake each other.
///
/// A class: every request looks its method up, and copying a struct of
/// closures out of the registry retained each of them.
final class Method: Sendable {
  enum Body: Sendable {
    /// Quick work that never blocks or awaits (an echo, a status read): it
    /// runs on the reader thread in arrival order, with no task to start.
    case inline(@Sendable (JSON?, RequestContext) throws -> JSON)
    /// Everything else runs as its own task, concurrently with other requests.
    case task(@Sendable (JSON?, RequestContext) async throws -> JSON)
    /// A task that writes its result's JSON text itself, for results large
    /// and frequent enough that building a `JSON` tree first shows in the
    /// round trip (`places/search`).
    case encodingTask(@Sendable (JSON?, RequestContext) async throws -> EncodedJSON)
  }

  let contract: MethodContract
  let body: Body
  /// Requests whose params give the same lane key run one at a time, in
  /// arrival order: mutations of one resource, operations on one feed. Keys
  /// name the resource (`product:7`), so different methods on one resource share a lane.
  let lane: (@Sendable (JSON?) -> String?)?
  /// The handler may start on the reader thread, and run there until it
  /// first suspends, when the session has nothing else to do (see
  /// `Connection.runTask`): for handlers that, once warm, compute their
  /// reply in less time than waking a pool thread takes, or that hand their
  /// work at once to a thread of its own (a database connection's), which
  /// then saves one of two wake-ups. Never for one that may block first.
  let startsOnReader: Bool
  /// The read, answered on the reader thread before any task starts, when it
  /// can be at once (a local file read on that thread's own connection): it
  /// gives the reply to its third argument, which sends it, and returns true;
  /// false means it cannot, and `body` runs as usual. No thread hand-off at
  /// all, for the reads clients make most. A method with a lane is asked
  /// only while its lane is idle: nothing it must follow is still waiting.
  let now: (@Sendable (JSON?, RequestContext, (Reply) -> Void) throws -> Bool)?

  init(
    contract: MethodContract, body: Body, lane: (@Sendable (JSON?) -> String?)?,
    startsOnReader: Bool = false,
    now: (@Sendable (JSON?, RequestContext, (Reply) -> Void) throws -> Bool)? = nil
  ) {
    (self.contract, self.body, self.lane) = (contract, body, lane)
    (self.startsOnReader, self.now) = (startsOnReader, now)
  }

  var name: String { contract.name }

  /// Runs on the reader thread with params checked against `contract`.
  static func inline(
    _ contract: MethodContract, _ body: @escaping @Sendable (Params, RequestContext) throws -> JSON
  ) -> Method {
    Method(
      contract: contract, body: .inline { try body(try contract.check($0), $1) }, lane: nil)
  }

  static func task(
    _ contract: MethodContract, lane: (@Sendable (JSON?) -> String?)? = nil,
    startsOnReader: Bool = false,
    now: (@Sendable (Params, RequestContext, (Reply) -> Void) throws -> Bool)? = nil,
    _ body: @escaping @Sendable (Params, RequestContext) async throws -> JSON
  ) -> Method {
    Method(
      contract: contract, body: .task { try await body(try contract.check($0), $1) }, lane: lane,
      startsOnReader: startsOnReader,
      now: now.map { now in { @Sendable in try now(try contract.check($0), $1, $2) } })
  }

  /// A read that `now` answers on the reader thread when it can, else `body`
  /// as a task (see `Method.now`); its result is written as JSON text
  /// (`encodingTask`).
  static func read(
    _ contract: MethodContract,
    now: @escaping @Sendable (Params, RequestContext) throws -> EncodedJSON?,
    _ body: @escaping @Sendable (Params, RequestContext) async throws -> EncodedJSON
  ) -> Method {
    Method(
      contract: contract, body: .encodingTask { try await body(try contract.check($0), $1) },
      lane: nil, startsOnReader: true,
      now: { params, context, answer in
        guard let result = try now(try contract.check(params), context) else { return false }
        answer(.encodedResult(result))
        return true
      })
  }

  static func encodingTask(
    _ contract: MethodContract, lane: (@Sendable (JSON?) -> String?)? = nil,
    startsOnReader: Bool = false,
    _ body: @escaping @Sendable (Params, RequestContext) async throws -> EncodedJSON
  ) -> Method {
    Method(
      contract: contract, body: .encodingTask { try await body(try contract.check($0), $1) },
      lane: lane, startsOnReader: startsOnReader)
  }
}
