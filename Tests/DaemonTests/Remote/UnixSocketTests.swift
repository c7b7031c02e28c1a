import Synchronization
import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Listening, stale sockets, accepting and connecting on real Unix sockets.
final class UnixSocketTests: XCTestCase {
  var folder = ""

  override func setUp() { folder = makeTemporaryFolder() }
  override func tearDown() { removeTree(folder) }

  func testAStaleSocketOfAKilledDaemonIsReplaced() throws {
    let path = folder + "/d.sock"
    let first = try UnixSocket.listen(path: path)
    // What a killed daemon leaves: the file, with nobody accepting on it.
    close(first)
    XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    XCTAssertThrowsError(try UnixSocket.connect(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .notListening(path))
    }

    let second = try UnixSocket.listen(path: path)
    defer { close(second) }
    let client = try UnixSocket.connect(path: path)
    defer { close(client) }
    let accepted = try XCTUnwrap(UnixSocket.accept(second))
    close(accepted)
  }

  func testASocketADaemonAnswersOnIsNotTaken() throws {
    let path = folder + "/d.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    XCTAssertThrowsError(try UnixSocket.listen(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .alreadyServing(path))
      XCTAssertTrue("\($0)".contains("--remote=\(path)"), "\($0)")
    }
    // The first daemon still serves.
    let client = try UnixSocket.connect(path: path)
    close(client)
  }

  func testAFileThatIsNoSocketIsLeftAlone() throws {
    let path = folder + "/notes.txt"
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
    XCTAssertThrowsError(try UnixSocket.listen(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .notASocket(path))
    }
    XCTAssertEqual(FileManager.default.contents(atPath: path), Data("keep".utf8))
  }

  func testAPathLongerThanSunPathIsRefusedClearly() {
    XCTAssertEqual(UnixSocket.maxPathBytes, 107)
    let path = folder + "/" + String(repeating: "s", count: 107 - folder.utf8.count) + ".sock"
    XCTAssertThrowsError(try UnixSocket.listen(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .pathTooLong(path: path, limit: 107))
      XCTAssertTrue("\($0)".contains("at most 107"), "\($0)")
    }
    XCTAssertThrowsError(try UnixSocket.connect(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .pathTooLong(path: path, limit: 107))
    }
  }

  func testTheLongestPathThatFitsWorks() throws {
    let path = folder + "/" + String(repeating: "s", count: 107 - folder.utf8.count - 1)
    XCTAssertEqual(path.utf8.count, 107)
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    close(try UnixSocket.connect(path: path))
  }

  func testTheSocketIsTheOwnersOnly() throws {
    let path = folder + "/d.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    var status = stat()
    XCTAssertEqual(lstat(path, &status), 0)
    XCTAssertEqual(status.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertEqual(status.st_mode & 0o777, 0o600)
  }

  func testConnectingToNothingSaysSo() {
    let path = folder + "/none.sock"
    XCTAssertThrowsError(try UnixSocket.connect(path: path)) {
      XCTAssertEqual($0 as? RemoteError, .notListening(path))
      XCTAssertTrue("\($0)".contains("catalogd serve --listen \(path)"), "\($0)")
    }
  }

  func testDescriptorsAreClosedOnExec() throws {
    let path = folder + "/d.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    let client = try UnixSocket.connect(path: path)
    defer { close(client) }
    let accepted = try XCTUnwrap(UnixSocket.accept(listener))
    defer { close(accepted) }
    for fd in [listener, client, accepted] {
      XCTAssertEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
    }
  }

  /// Whether the thread is already blocked in accept(2) or about to enter
  /// it, `stopAccepting` makes it return nil.
  func testStopAcceptingWakesTheAcceptingThread() throws {
    let path = folder + "/d.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { close(listener) }
    let entering = Mutex(false)
    let result = Mutex<Int32??>(nil)
    startThread {
      entering.withLock { $0 = true }
      let fd = UnixSocket.accept(listener)
      result.withLock { $0 = .some(fd) }
    }
    XCTAssertTrue(waitUntil { entering.withLock { $0 } })
    UnixSocket.stopAccepting(listener)
    XCTAssertTrue(waitUntil { result.withLock { $0 != nil } })
    XCTAssertEqual(result.withLock { $0 }, .some(nil))
    XCTAssertThrowsError(try UnixSocket.connect(path: path))
  }
}
