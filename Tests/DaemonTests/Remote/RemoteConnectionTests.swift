import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// A forwarder sends its session only to a daemon of its own user.
final class RemoteConnectionTests: XCTestCase {
  var folder = ""

  override func setUp() { folder = makeTemporaryFolder() }
  override func tearDown() { removeTree(folder) }

  func testADaemonOfThisUserIsReached() throws {
    let path = folder + "/d.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    let connection = try RemoteConnection.open(
      .socket(path: path), configuration: Configuration(), arguments: [], environment: [:])
    defer { close(connection.fd) }
    XCTAssertEqual(connection.socketPath, path)
    XCTAssertNil(connection.logPath)
  }

  func testADaemonOfAnotherUserIsRefused() throws {
    try XCTSkipUnless(geteuid() == 0, "only root can listen as another user")
    try XCTSkipUnless(
      FileManager.default.isExecutableFile(atPath: systemPython), "needs \(systemPython)")
    let path = folder + "/d.sock"
    // Bound as root, listening as uid 65534: the kernel records the listener's
    // credentials at listen(2).
    let script = folder + "/other-user"
    try writeScript(
      script,
      """
      #!/usr/bin/python3
      import os, socket, sys
      listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
      listener.bind(sys.argv[1])
      os.setgid(65534)
      os.setuid(65534)
      listener.listen(8)
      connections = []
      while True:
          connections.append(listener.accept()[0])

      """)
    let pid = try DetachedProcess.spawn(
      executable: script, arguments: [path], environment: [:], logPath: folder + "/log")
    defer {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    XCTAssertTrue(
      waitUntil {
        guard let fd = try? UnixSocket.connect(path: path) else { return false }
        close(fd)
        return true
      })
    XCTAssertThrowsError(
      try RemoteConnection.open(
        .socket(path: path), configuration: Configuration(), arguments: [], environment: [:])
    ) {
      XCTAssertEqual($0 as? RemoteError, .foreignDaemon(path: path, uid: 65534))
      XCTAssertTrue("\($0)".contains("served by uid 65534"), "\($0)")
    }
  }
}
