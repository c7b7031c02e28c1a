import Foundation
import Protocol
import Synchronization
import XCTest

@testable import Services

/// The Python products upstream, `Tests/Upstreams/graphql_products_server.py`,
/// running the real schema with graphql-core in a subprocess for one test.
///
/// The server exits when its stdin closes, so it does not outlive a test run
/// that crashes before `stop()`.
final class GraphQLTestUpstream {
  /// One GraphQL request as the upstream recorded it.
  struct Recorded {
    let operationName: String?
    /// The `Croquis-UUID` header.
    let clientId: String?
    let contentType: String?
    let query: String?
    let variables: JSON
  }

  struct StartFailure: Error, CustomStringConvertible {
    let description: String
  }

  let port: Int
  private let process: Process
  private let stdin: Pipe
  private let client = HTTPClient()

  /// The repository, found from this file's path.
  static let repository = URL(filePath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  var endpoint: String { "http://127.0.0.1:\(port)/graphql" }
  private var controlURL: String { "http://127.0.0.1:\(port)" }

  init() throws {
    let script = Self.repository.appending(path: "Tests/Upstreams/graphql_products_server.py")
    process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--exit-on-eof"]
    stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    // The first line is the port; an empty read means the server died (its
    // traceback went to stderr, which the test log shows).
    var line: [UInt8] = []
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = stdout.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line += chunk
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text) else {
      process.terminate()
      throw StartFailure(
        description: "the GraphQL test upstream did not start (python3 with graphql-core: "
          + "pip install -r Tests/requirements.txt); it printed \(text.debugDescription)")
    }
    self.port = port
  }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    try? stdin.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// Every GraphQL request since the start or the last `reset()`, oldest first.
  func requests() async throws -> [Recorded] {
    let response = try await client.send(HTTPRequest(url: controlURL + "/_requests"))
    let list = try XCTUnwrap(try JSONParser.parse(response.body).arrayValue)
    return list.map { entry in
      Recorded(
        operationName: entry["operationName"]?.stringValue,
        clientId: entry["croquisUuid"]?.stringValue,
        contentType: entry["contentType"]?.stringValue, query: entry["query"]?.stringValue,
        variables: entry["variables"] ?? .null)
    }
  }

  /// Makes the following GraphQL requests fail as `faults` says (see the server's
  /// documentation); `[:]` ends the faults.
  func setFaults(_ faults: JSON) async throws {
    try await post("/_faults", faults)
  }

  /// Back to the seed catalog, no faults, no recorded requests.
  func reset() async throws {
    try await post("/_reset", [:])
  }

  private func post(_ path: String, _ body: JSON) async throws {
    let response = try await client.send(
      HTTPRequest(method: "POST", url: controlURL + path, body: body.serialized()))
    XCTAssertEqual(response.status, 200, "POST \(path)")
  }
}

/// The client id a backend sends, changeable while the backend is in use
/// (as `initialize` changes it in the daemon).
final class ClientIdBox: Sendable {
  private let value: Mutex<String>

  init(_ value: String) { self.value = Mutex(value) }

  var current: String {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}
