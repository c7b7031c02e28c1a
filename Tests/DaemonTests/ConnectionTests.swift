import Protocol
import Synchronization
import XCTest

@testable import Daemon

/// The dispatch core through its real entry point, with an in-memory sink.
final class ConnectionTests: XCTestCase {
  var sink: CollectingSink!
  var connection: Connection!
  /// The status `exit` asked for.
  final class ExitStatus: Sendable {
    let value = Mutex<Int32?>(nil)
  }
  let exitStatus = ExitStatus()

  /// Where the tests' data dirs go, removed after the last test: a catalog
  /// opens in the background after `initialize`, and may still be writing
  /// when its test ends.
  static let dataDirectories =
    FileManager.default.temporaryDirectory.path + "/catalogd-connection-tests-\(UUID())"

  /// A data dir of this test's own (made by the daemon on first use).
  func freshDataDirectory() -> String {
    Self.dataDirectories + "/\(UUID())"
  }

  override class func tearDown() {
    try? FileManager.default.removeItem(atPath: dataDirectories)
  }

  override func setUp() {
    sink = CollectingSink()
    var configuration = Configuration()
    configuration.dataDirectory =
      freshDataDirectory()
    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    connection = Connection(
      sink: sink, daemon: daemon, methods: MethodRegistry.all,
      onExit: { [exitStatus] status in exitStatus.value.withLock { $0 = status } })
  }

  func send(_ text: String) {
    Array(text.utf8).withUnsafeBufferPointer { connection.receive($0) }
  }

  func request(_ id: Int, _ method: String, _ params: String? = nil) {
    send(
      #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""#
        + (params.map { #","params":\#($0)"# } ?? "") + "}")
  }

  func initialize() {
    request(0, "initialize", #"{"clientId":"test"}"#)
  }

  func replies(_ messages: [JSON], id: Int) -> [JSON] {
    messages.filter { $0["id"]?.intValue == id }
  }

  func wait(forReplies ids: [Int], timeout: Double = 10) -> [JSON] {
    sink.waitUntil(timeout: timeout) { messages in
      ids.allSatisfy { !replies(messages, id: $0).isEmpty }
    }
  }

  func testRequestsBeforeInitializeAreRefused() {
    request(1, "daemon/echo", "[1]")
    initialize()
    request(2, "daemon/echo", "[2]")
    request(3, "initialize")
    let messages = wait(forReplies: [1, 0, 2, 3])
    XCTAssertEqual(replies(messages, id: 1).first?["error"]?["code"], -32002)
    XCTAssertEqual(replies(messages, id: 0).first?["result"]?["clientId"], "test")
    XCTAssertEqual(replies(messages, id: 2).first?["result"], [2])
    XCTAssertEqual(replies(messages, id: 3).first?["error"]?["code"], -32600)
  }

  func testShutdownThenExitGivesStatusZero() {
    initialize()
    send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}"#)
    request(2, "daemon/echo")
    let messages = wait(forReplies: [1, 2])
    XCTAssertEqual(replies(messages, id: 1).first?["result"], .null)
    XCTAssertEqual(replies(messages, id: 2).first?["error"]?["code"], -32600)
    send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    XCTAssertEqual(exitStatus.value.withLock { $0 }, 0)
  }

  /// `shutdown` is answered after the requests before it, so `exit` drops no reply.
  func testShutdownWaitsForEarlierRequests() {
    initialize()
    request(1, "daemon/sleep", #"{"ms":150}"#)
    request(2, "shutdown")
    let messages = wait(forReplies: [1, 2])
    let order = messages.compactMap { $0["id"]?.intValue }.filter { $0 != 0 }
    XCTAssertEqual(order, [1, 2])
  }

  /// A client that pipelines `shutdown` and `exit` gets every earlier reply before the process ends.
  func testExitAfterShutdownWaitsForEarlierReplies() {
    initialize()
    request(1, "daemon/sleep", #"{"ms":150}"#)
    request(2, "shutdown")
    send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    XCTAssertEqual(exitStatus.value.withLock { $0 }, 0)
    let answered = sink.waitUntil(timeout: 0) { _ in true }.compactMap { $0["id"]?.intValue }
    XCTAssertEqual(answered, [0, 1, 2])
  }

  func testExitWithoutShutdownGivesStatusOne() {
    initialize()
    send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    XCTAssertEqual(exitStatus.value.withLock { $0 }, 1)
  }

  func testCancellationAnswersAtOnceWithMinus32800() {
    initialize()
    request(1, "daemon/sleep", #"{"ms":60000}"#)
    let started = monotonicSeconds()
    send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    let messages = wait(forReplies: [1])
    XCTAssertLessThan(monotonicSeconds() - started, 1)
    XCTAssertEqual(replies(messages, id: 1).first?["error"]?["code"], -32800)
    XCTAssertEqual(connection.inFlightCount, 0)
  }

  /// Cancellations racing with completions: every request gets exactly one reply.
  func testEveryRequestGetsExactlyOneReplyWhateverTheRace() {
    initialize()
    let count = 400
    for id in 1...count {
      request(id, "daemon/sleep", #"{"ms":\#(id % 3)}"#)
      if id % 2 == 0 {
        send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#)
      }
    }
    // Cancel the odd ones late, as they finish.
    for id in stride(from: 1, through: count, by: 2) {
      send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#)
    }
    _ = wait(forReplies: Array(1...count))
    XCTAssertTrue(connection.waitUntilIdle(timeout: 10))
    Thread.sleep(forTimeInterval: 0.05)  // a late duplicate would arrive now
    let messages = sink.waitUntil(timeout: 0) { _ in true }
    for id in 1...count {
      let answers = replies(messages, id: id)
      XCTAssertEqual(answers.count, 1, "id \(id)")
      let code = answers.first?["error"]?["code"]
      XCTAssertTrue(answers.first?["result"] != nil || code == -32800, "id \(id)")
    }
  }

  func testSameLaneRunsInArrivalOrderOthersConcurrently() {
    initialize()
    request(1, "daemon/sleep", #"{"ms":150,"lane":"a"}"#)
    request(2, "daemon/sleep", #"{"ms":0,"lane":"a"}"#)
    request(3, "daemon/sleep", #"{"ms":0,"lane":"b"}"#)
    let messages = wait(forReplies: [1, 2, 3]).compactMap { $0["id"]?.intValue }.filter { $0 != 0 }
    XCTAssertEqual(messages, [3, 1, 2])
  }

  func testNotificationsCausedByARequestPrecedeItsResponse() {
    initialize()
    request(1, "quotes/random", #"{"tags":["wisdom"]}"#)
    let messages = wait(forReplies: [1]).filter { $0["id"]?.intValue != 0 }
    XCTAssertEqual(messages.count, 3)
    XCTAssertEqual(messages[0]["params"], ["isLoading": true])
    XCTAssertEqual(messages[1]["params"], ["isLoading": false])
    XCTAssertEqual(messages[2]["result"]?["tags"]?.arrayValue?.contains("wisdom"), true)
  }

  func testBatchRepliesAsOneArrayInElementOrder() {
    initialize()
    send(
      #"[{"jsonrpc":"2.0","id":1,"method":"daemon/sleep","params":{"ms":30}},"#
        + #"{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","id":2,"method":"nope"},1]"#)
    let messages = sink.waitUntil(timeout: 5) { $0.contains { $0.arrayValue != nil } }
    let batch = messages.compactMap(\.arrayValue).first ?? []
    XCTAssertEqual(batch.map { $0["id"] }, [1, 2, .null])
    XCTAssertEqual(batch.map { $0["error"]?["code"] }, [nil, -32601, -32600])
  }

  func testBatchOfNotificationsGetsNoReply() {
    initialize()
    send(#"[{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","method":"x"}]"#)
    request(1, "daemon/echo", "[1]")
    let messages = wait(forReplies: [1])
    XCTAssertEqual(messages.count, 2)
  }

  func testWorkDoneProgressIsSentForATokenOnly() {
    let sent = Mutex<[JSON]>([])
    let notify: @Sendable (String, JSON?) -> Void = { method, params in
      sent.withLock { $0.append(["method": JSON(method), "params": params ?? .null]) }
    }
    XCTAssertNil(ProgressReporter(params: ["x": 1], notify: notify))
    let progress = ProgressReporter(params: ["workDoneToken": "t1"], notify: notify)
    progress?.begin(title: "Importing", percentage: 0)
    progress?.report(message: "half", percentage: 50)
    progress?.end()
    let values = sent.withLock { $0 }.map { $0["params"]?["value"]?["kind"] }
    XCTAssertEqual(values, ["begin", "report", "end"])
    XCTAssertEqual(sent.withLock { $0 }.first?["params"]?["token"], "t1")
  }

  /// With every slot taken, requests queue (and the reader stops once the
  /// queue is full), but a cancellation still gets through at once.
  func testInFlightLimitQueuesRequestsAndCancelStillWorks() {
    var configuration = Configuration()
    configuration.maxInFlight = 2
    configuration.dataDirectory =
      freshDataDirectory()
    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    let limited = Connection(
      sink: sink, daemon: daemon, methods: MethodRegistry.all, onExit: { _ in })
    connection = limited
    initialize()
    request(1, "daemon/sleep", #"{"ms":60000}"#)
    request(2, "daemon/sleep", #"{"ms":100}"#)
    request(3, "daemon/sleep", #"{"ms":0,"lane":"q"}"#)
    request(4, "daemon/sleep", #"{"ms":0,"lane":"q"}"#)
    XCTAssertEqual(limited.inFlightCount, 2)
    // The queue (3, 4) is full: the reader would wait here until request 2 ends.
    let started = monotonicSeconds()
    limited.waitForRoom()
    XCTAssertGreaterThan(monotonicSeconds() - started, 0.05)
    send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    let messages = wait(forReplies: [1, 2, 3, 4])
    XCTAssertEqual(replies(messages, id: 1).first?["error"]?["code"], -32800)
    // Queued requests start in arrival order (the lane makes that visible in the replies).
    let order = messages.compactMap { $0["id"]?.intValue }.filter { $0 == 3 || $0 == 4 }
    XCTAssertEqual(order, [3, 4])
  }

  func testQueuedRequestIsCancelledAtOnce() {
    var configuration = Configuration()
    configuration.maxInFlight = 1
    configuration.dataDirectory =
      freshDataDirectory()
    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    connection = Connection(
      sink: sink, daemon: daemon, methods: MethodRegistry.all, onExit: { _ in })
    initialize()
    request(1, "daemon/sleep", #"{"ms":60000}"#)
    request(2, "daemon/sleep", #"{"ms":0}"#)
    send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
    let messages = wait(forReplies: [2], timeout: 2)
    XCTAssertEqual(replies(messages, id: 2).first?["error"]?["code"], -32800)
    send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    XCTAssertTrue(connection.waitUntilIdle(timeout: 2))
  }

  /// A method that `startsOnReader` runs on the thread that received it when
  /// it came alone to an idle session, and on the pool otherwise.
  func testAHandlerStartsOnTheReaderOnlyForALoneRequestToAnIdleSession() {
    final class Threads: Sendable {
      let seen = Mutex<[Int: pthread_t]>([:])
    }
    let threads = Threads()
    let contract = MethodContract(
      "test/where", "Where it ran.", result: MethodResult("Null", .null))
    let whereRun = Method.encodingTask(contract, startsOnReader: true) { _, context in
      let id = context.id.description
      threads.seen.withLock { $0[Int(id) ?? -1] = pthread_self() }
      return EncodedJSON(.null)
    }
    connection = Connection(
      sink: sink, daemon: connection.daemon, methods: MethodRegistry.all + [whereRun],
      onExit: { _ in })
    initialize()
    let reader = pthread_self()
    func receive(_ id: Int, moreInput: Bool) {
      Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"test/where"}"#.utf8).withUnsafeBufferPointer {
        connection.receive($0, moreInput: moreInput)
      }
    }
    receive(1, moreInput: false)
    let answered = sink.waitUntil(timeout: 0) { _ in true }
    XCTAssertFalse(replies(answered, id: 1).isEmpty, "answered before receive returned")
    receive(2, moreInput: true)
    request(3, "daemon/sleep", #"{"ms":500}"#)
    receive(4, moreInput: false)
    _ = wait(forReplies: [1, 2, 3, 4])
    let seen = threads.seen.withLock { $0 }
    XCTAssertEqual(seen[1].map { pthread_equal($0, reader) }, 1, "alone, idle: on the reader")
    XCTAssertEqual(seen[2].map { pthread_equal($0, reader) }, 0, "more input behind it: pool")
    XCTAssertEqual(seen[4].map { pthread_equal($0, reader) }, 0, "another one running: pool")
  }
}
