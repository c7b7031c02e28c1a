import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// The socket folder is private and checked; socket paths follow the configuration.
final class SocketDirectoryTests: XCTestCase {
  var folder = ""

  override func setUp() { folder = makeTemporaryFolder() }
  override func tearDown() { removeTree(folder) }

  func testTheFolderIsMadePrivate() throws {
    let path = folder + "/catalogd"
    let saved = umask(0o022)
    defer { umask(saved) }
    try SocketDirectory.prepare(path)
    var status = stat()
    XCTAssertEqual(lstat(path, &status), 0)
    XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR)
    XCTAssertEqual(status.st_mode & 0o7777, 0o700)
    XCTAssertEqual(status.st_uid, geteuid())
    // A second use finds it as it is.
    try SocketDirectory.prepare(path)
  }

  func testTheRuntimeFolderIsPreferredWhenItIsTheUsers() throws {
    XCTAssertEqual(
      SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": folder]), folder + "/catalogd")
    XCTAssertEqual(
      SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": folder + "/"]),
      folder + "/catalogd")
    let fallback = "/tmp/catalogd-\(geteuid())"
    XCTAssertEqual(SocketDirectory.chosenPath(environment: [:]), fallback)
    XCTAssertEqual(SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": ""]), fallback)
    XCTAssertEqual(
      SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": "relative/run"]), fallback)
    XCTAssertEqual(
      SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": folder + "/missing"]), fallback)

    XCTAssertEqual(
      try SocketDirectory.forUser(environment: ["XDG_RUNTIME_DIR": folder]), folder + "/catalogd")
    var status = stat()
    XCTAssertEqual(lstat(folder + "/catalogd", &status), 0)
    XCTAssertEqual(status.st_mode & 0o7777, 0o700)
  }

  func testARuntimeFolderOfAnotherUserIsNotUsed() throws {
    try XCTSkipUnless(geteuid() == 0, "only root can give a folder to another user")
    let runtime = folder + "/run"
    XCTAssertEqual(mkdir(runtime, 0o700), 0)
    XCTAssertEqual(chown(runtime, 65534, 65534), 0)
    XCTAssertEqual(
      SocketDirectory.chosenPath(environment: ["XDG_RUNTIME_DIR": runtime]),
      "/tmp/catalogd-\(geteuid())")
  }

  func testASymbolicLinkIsRefused() throws {
    let target = folder + "/elsewhere"
    XCTAssertEqual(mkdir(target, 0o700), 0)
    let path = folder + "/catalogd"
    XCTAssertEqual(symlink(target, path), 0)
    XCTAssertThrowsError(try SocketDirectory.prepare(path)) {
      guard case .unsafeDirectory(path, let problem) = $0 as? RemoteError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(problem.contains("symbolic link"), problem)
      XCTAssertTrue(problem.contains("rm \(path)"), problem)
    }
  }

  func testAFolderOpenToOthersIsRefusedNotRepaired() throws {
    let path = folder + "/catalogd"
    XCTAssertEqual(mkdir(path, 0o700), 0)
    XCTAssertEqual(chmod(path, 0o755), 0)
    XCTAssertThrowsError(try SocketDirectory.prepare(path)) {
      guard case .unsafeDirectory(path, let problem) = $0 as? RemoteError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(problem.contains("mode 0755"), problem)
      XCTAssertTrue(problem.contains("chmod 700 \(path)"), problem)
    }
    var status = stat()
    XCTAssertEqual(lstat(path, &status), 0)
    XCTAssertEqual(status.st_mode & 0o7777, 0o755)
  }

  func testAFolderOfAnotherUserIsRefusedNotRepaired() throws {
    try XCTSkipUnless(geteuid() == 0, "only root can give a folder to another user")
    let path = folder + "/catalogd"
    XCTAssertEqual(mkdir(path, 0o700), 0)
    XCTAssertEqual(chown(path, 65534, 65534), 0)
    XCTAssertThrowsError(try SocketDirectory.prepare(path)) {
      guard case .unsafeDirectory(path, let problem) = $0 as? RemoteError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(problem.contains("belongs to uid 65534, not to you (uid 0)"), problem)
    }
    var status = stat()
    XCTAssertEqual(lstat(path, &status), 0)
    XCTAssertEqual(status.st_uid, 65534)
    XCTAssertEqual(status.st_mode & 0o7777, 0o700)
  }

  func testAFileIsRefused() throws {
    let path = folder + "/catalogd"
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
    XCTAssertThrowsError(try SocketDirectory.prepare(path)) {
      guard case .unsafeDirectory(path, let problem) = $0 as? RemoteError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(problem.contains("is not a folder"), problem)
    }
  }

  // MARK: - Socket paths

  func configuration(_ change: (inout Configuration) -> Void = { _ in }) -> Configuration {
    var configuration = Configuration()
    configuration.dataDirectory = "/srv/catalogd"
    change(&configuration)
    return configuration
  }

  func path(_ configuration: Configuration) -> String {
    SocketDirectory.socketPath(for: configuration, in: "/run/user/1000/catalogd")
  }

  func testEqualConfigurationsShareOneSocket() {
    let socket = path(configuration())
    XCTAssertEqual(socket, path(configuration()))
    XCTAssertTrue(socket.hasPrefix("/run/user/1000/catalogd/"))
    let name = socket.split(separator: "/").last.map(String.init) ?? ""
    XCTAssertEqual(name.count, 16 + ".sock".count)
    XCTAssertTrue(name.hasSuffix(".sock"))
    XCTAssertTrue(name.dropLast(5).allSatisfy { $0.isHexDigit && !$0.isUppercase }, name)
  }

  func testSettingsThatDoNotChangeWhatIsServedShareOneSocket() {
    XCTAssertEqual(
      path(configuration()),
      path(
        configuration {
          $0.logLevel = .debug
          $0.framing = .fixed(.lsp)
          $0.tracePath = "/tmp/trace"
          $0.remote = .auto
          $0.idleTimeoutSeconds = 5
        }))
  }

  func testEachSettingThatChangesWhatIsServedHasASocketOfItsOwn() {
    let variants: [(String, (inout Configuration) -> Void)] = [
      ("dataDirectory", { $0.dataDirectory = "/srv/other" }),
      ("photosDirectory", { $0.photosDirectory = "/srv/photos" }),
      ("databaseURL", { $0.databaseURL = "postgres://db/catalog" }),
      ("serverURL", { $0.serverURL = "http://127.0.0.1:8080/graphql" }),
      ("quotesURL", { $0.quotesURL = "http://127.0.0.1:8081" }),
      ("photosURL", { $0.photosURL = "http://127.0.0.1:8082" }),
      ("placesURL", { $0.placesURL = "http://127.0.0.1:8083" }),
      ("kakaoRestAPIKey", { $0.kakaoRestAPIKey = "key" }),
      ("kakaoRestAPIKey empty", { $0.kakaoRestAPIKey = "" }),
      ("upstreamTimeoutMilliseconds", { $0.upstreamTimeoutMilliseconds = 500 }),
    ]
    var seen = [path(configuration()): "default"]
    for (name, change) in variants {
      let socket = path(configuration(change))
      XCTAssertNil(seen[socket], "\(name) shares a socket with \(seen[socket] ?? "")")
      seen[socket] = name
    }
  }

  func testValuesCannotSpillIntoTheNextField() {
    // Were the fields joined without lengths, these two would read the same.
    let one = configuration {
      $0.serverURL = "a\nquotesURL=b"
      $0.quotesURL = nil
    }
    let other = configuration {
      $0.serverURL = "a"
      $0.quotesURL = "b"
    }
    XCTAssertNotEqual(path(one), path(other))
  }

  func testFoldersAreComparedAbsoluteAndStandardized() {
    let cwd = FileManager.default.currentDirectoryPath
    let absolute = path(configuration { $0.dataDirectory = cwd + "/x" })
    for spelling in ["./x", "x", "x/", "./y/../x", cwd + "//x/.", cwd + "/x/"] {
      XCTAssertEqual(path(configuration { $0.dataDirectory = spelling }), absolute, spelling)
    }
    XCTAssertEqual(
      path(configuration { $0.photosDirectory = "./p" }),
      path(configuration { $0.photosDirectory = cwd + "/p/" }))
    XCTAssertEqual(SocketDirectory.standardized("../../..", in: "/a"), "/")
    XCTAssertEqual(SocketDirectory.standardized("b/./c/../d", in: "/a/"), "/a/b/d")
  }

  func testTheHashIsStable() {
    // FNV-1a's published test vectors: the hash may never depend on the process.
    XCTAssertEqual(SocketDirectory.fnv1a([]), 0xcbf2_9ce4_8422_2325)
    XCTAssertEqual(SocketDirectory.fnv1a(Array("a".utf8)), 0xaf63_dc4c_8601_ec8c)
    XCTAssertEqual(SocketDirectory.fnv1a(Array("foobar".utf8)), 0x8594_4171_f739_67e8)
  }

  func testTheLockAndTheLogLieBesideTheSocket() {
    let socket = "/run/user/1000/catalogd/0123456789abcdef.sock"
    XCTAssertEqual(
      SocketDirectory.lockPath(forSocket: socket), "/run/user/1000/catalogd/0123456789abcdef.lock")
    XCTAssertEqual(
      SocketDirectory.logPath(forSocket: socket), "/run/user/1000/catalogd/0123456789abcdef.log")
  }
}
