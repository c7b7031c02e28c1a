import Protocol
import XCTest

@testable import Daemon

/// `openrpc.json` is what the declarations write, and describes every method served.
final class OpenRPCDocumentTests: XCTestCase {
  static let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
  }()

  func testCheckedInFileIsWhatTheDeclarationsWrite() throws {
    let data = try XCTUnwrap(
      FileManager.default.contents(atPath: Self.repositoryRoot + "/openrpc.json"))
    XCTAssert(
      String(decoding: data, as: UTF8.self) == OpenRPCDocument.text,
      "openrpc.json is out of date: run scripts/openrpc")
    XCTAssertEqual(OpenRPCDocument.json["info"]?["version"], JSON(Version.current))
  }

  func testDocumentListsExactlyTheServedMethods() throws {
    let documented = Set(
      try XCTUnwrap(OpenRPCDocument.json["methods"]?.arrayValue).compactMap {
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
