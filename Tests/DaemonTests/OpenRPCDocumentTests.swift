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

  /// The connection keeps the first of two methods of one name, and the
  /// document the first of two shapes of one name: neither may happen.
  func testEachNameStandsForOneThing() {
    let names = OpenRPCDocument.methods.map(\.name)
    XCTAssertEqual(names.count, Set(names).count, "a method declared twice")
    var components = ComponentCollector()
    for contract in OpenRPCDocument.methods {
      for member in contract.params.members { components.collect(member.schema) }
      components.collect(contract.result.schema)
    }
    for notification in NotificationRegistry.all {
      if let params = notification.params { components.collect(params) }
    }
    XCTAssertEqual(components.conflicts, [])
    XCTAssertGreaterThan(components.found.count, 10)
  }

  func testRegistryIsAlphabetical() {
    let names = MethodRegistry.all.map(\.name)
    XCTAssertEqual(names, names.sorted())
  }
}
