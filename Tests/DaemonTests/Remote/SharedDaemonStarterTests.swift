import Synchronization
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Starting the shared daemon, with a Python script standing in for
/// `catalogd serve --listen`: it records each start, then listens.
final class SharedDaemonStarterTests: XCTestCase {
  var folder = ""
  var record = ""
  var script = ""

  static let fakeDaemon = """
    #!/usr/bin/python3
    import os, socket, sys, time
    arguments = sys.argv[1:]
    path = arguments[arguments.index("--listen") + 1]
    with open(os.environ["FAKE_RECORD"], "a") as record:
        fields = [str(os.getpid()), str(os.getsid(0)), os.environ.get("CATALOGD_REMOTE", "-")]
        record.write(" ".join(fields + arguments) + "\\n")
    if os.environ.get("FAKE_FAIL"):
        print("catalogd: cannot open the data dir /nowhere", file=sys.stderr, flush=True)
        sys.exit(3)
    # A slow start, so that the other forwarders find the lock taken.
    time.sleep(0.1)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    connections = []
    while True:
        connections.append(listener.accept()[0])

    """

  override func setUpWithError() throws {
    try XCTSkipUnless(
      FileManager.default.isExecutableFile(atPath: systemPython), "needs \(systemPython)")
    folder = makeTemporaryFolder()
    record = folder + "/starts"
    script = folder + "/fake-catalogd"
    try writeScript(script, Self.fakeDaemon)
  }

  override func tearDown() {
    for start in starts() {
      guard let pid = Int32(start[0]) else { continue }
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    removeTree(folder)
  }

  /// Each start of the fake daemon: pid, session id, CATALOGD_REMOTE, then its arguments.
  func starts() -> [[String]] {
    guard let data = FileManager.default.contents(atPath: record) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    }
  }

  var environment: [String: String] {
    [
      "FAKE_RECORD": record, "CATALOGD_REMOTE": "auto", "CATALOGD_TRACE": "/tmp/t",
      "CATALOGD_DATA_DIR": "/srv/d",
    ]
  }

  func connect(_ socket: String, environment: [String: String]? = nil) throws -> Int32 {
    var configuration = Configuration()
    configuration.idleTimeoutSeconds = 7
    return try SharedDaemonStarter.connect(
      socket: socket, configuration: configuration,
      arguments: ["--remote=auto", "--log-level", "debug", "call", "quotes/random"],
      environment: environment ?? self.environment, executable: script)
  }

  func testEightForwardersStartedAtOnceEndWithOneDaemon() throws {
    let socket = folder + "/d.sock"
    let results = Mutex<[Result<Int32, RemoteError>]>([])
    let environment = self.environment
    let script = self.script
    for _ in 0..<8 {
      startThread {
        var configuration = Configuration()
        configuration.idleTimeoutSeconds = 7
        let result = Result { () throws(RemoteError) -> Int32 in
          try SharedDaemonStarter.connect(
            socket: socket, configuration: configuration, arguments: ["--remote=auto"],
            environment: environment, executable: script)
        }
        results.withLock { $0.append(result) }
      }
    }
    XCTAssertTrue(waitUntil(timeout: 20) { results.withLock { $0.count } == 8 })

    let started = starts()
    XCTAssertEqual(started.count, 1, "\(started)")
    let daemon = try XCTUnwrap(started.first.flatMap { Int32($0[0]) })
    for result in results.withLock({ $0 }) {
      switch result {
      case .success(let fd):
        XCTAssertEqual(
          PeerCredentials.of(fd)?.pid, daemon, "every forwarder reaches the one daemon")
        close(fd)
      case .failure(let error):
        XCTFail("\(error)")
      }
    }
  }

  func testTheDaemonIsStartedDetachedWithTheForwardersSettings() throws {
    let socket = folder + "/d.sock"
    close(try connect(socket))
    let start = try XCTUnwrap(starts().first)
    XCTAssertEqual(start[1], start[0], "the daemon leads a session of its own")
    XCTAssertEqual(start[2], "-", "CATALOGD_REMOTE is not passed on")
    XCTAssertEqual(
      Array(start[3...]),
      [
        "serve", "--listen", socket, "--idle-timeout", "7", "--remote=", "--framing=auto",
        "--log-level", "debug",
      ])
    // A warm daemon is reached without starting another.
    close(try connect(socket))
    XCTAssertEqual(starts().count, 1)
  }

  func testAStaleSocketIsReplacedByANewDaemon() throws {
    let socket = folder + "/d.sock"
    close(try UnixSocket.listen(path: socket))
    let fd = try connect(socket)
    close(fd)
    XCTAssertEqual(starts().count, 1)
  }

  func testADaemonThatFailsToStartIsReportedWithItsLog() throws {
    let socket = folder + "/d.sock"
    var environment = self.environment
    environment["FAKE_FAIL"] = "1"
    let began = monotonicSeconds()
    XCTAssertThrowsError(try connect(socket, environment: environment)) {
      guard case .daemonDidNotStart(socket, let log, let detail, let tail) = $0 as? RemoteError
      else { return XCTFail("\($0)") }
      XCTAssertEqual(log, folder + "/d.log")
      XCTAssertEqual(detail, "it exited with status 3")
      XCTAssertEqual(tail, "catalogd: cannot open the data dir /nowhere")
      XCTAssertTrue("\($0)".contains("cannot open the data dir"), "\($0)")
    }
    XCTAssertLessThan(monotonicSeconds() - began, 5, "a daemon that exits is not waited for")
    // The next attempt's report holds its own start only.
    XCTAssertThrowsError(try connect(socket, environment: environment)) {
      guard case .daemonDidNotStart(_, _, _, let tail) = $0 as? RemoteError else {
        return XCTFail("\($0)")
      }
      XCTAssertEqual(tail, "catalogd: cannot open the data dir /nowhere")
    }
  }

  func testTheDaemonsArgumentsLeaveOutTheForwardersOwn() {
    XCTAssertEqual(
      SharedDaemonStarter.daemonArguments(
        socket: "/s.sock", idleTimeoutSeconds: 60,
        forwarderArguments: [
          "--remote", "auto", "--data-dir", "./d", "--trace=/tmp/t", "--framing", "lsp",
          "call", "quotes/random", "{}", "--idle-timeout=5", "--server-url=http://x/graphql",
          "--listen", "/other.sock", "--config", "c.json",
        ]),
      [
        "serve", "--listen", "/s.sock", "--idle-timeout", "60", "--remote=", "--framing=auto",
        "--data-dir", "./d", "--server-url=http://x/graphql", "--config", "c.json",
      ])
    XCTAssertEqual(
      SharedDaemonStarter.daemonEnvironment([
        "CATALOGD_REMOTE": "auto", "CATALOGD_FRAMING": "lsp", "CATALOGD_TRACE": "/t",
        "CATALOGD_DATA_DIR": "/d", "HOME": "/root",
      ]),
      ["CATALOGD_DATA_DIR": "/d", "HOME": "/root"])
  }
}
