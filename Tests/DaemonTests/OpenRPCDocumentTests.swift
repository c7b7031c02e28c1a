import Protocol
import XCTest

@testable import Daemon

/// `rpc.discover`, `openrpc.json` and the method registry describe the same methods.
final class OpenRPCDocumentTests: XCTestCase {
  static let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
  }()

  func testEmbeddedDocumentIsTheCheckedInFile() throws {
    let data = try XCTUnwrap(
      FileManager.default.contents(atPath: Self.repositoryRoot + "/openrpc.json"))
    XCTAssertEqual(try JSONParser.parse([UInt8](data)), RPCDiscover.document)
    XCTAssertEqual(RPCDiscover.document["info"]?["version"], JSON(Version.current))
  }

  func testDocumentListsExactlyTheServedMethods() throws {
    let documented = Set(
      try XCTUnwrap(RPCDiscover.document["methods"]?.arrayValue).compactMap {
        $0["name"]?.stringValue
      })
    let served = Set(MethodRegistry.all.map(\.name) + ["initialize", "shutdown"])
    XCTAssertEqual(documented, served)
  }

  func testRegistryIsAlphabetical() {
    let names = MethodRegistry.all.map(\.name)
    XCTAssertEqual(names, names.sorted())
  }
}
