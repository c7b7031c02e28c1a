import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

final class PeerCredentialsTests: XCTestCase {
  func testThePeerOfASocketPairIsThisProcess() throws {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let peer = try XCTUnwrap(PeerCredentials.of(fds[0]))
    XCTAssertEqual(peer, PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid()))
  }

  func testAPipeHasNoPeer() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    XCTAssertNil(PeerCredentials.of(fds[0]))
  }
}
