import Protocol
import XCTest

/// Every file of JSONTestSuite's test_parsing is a case: `y_` must parse,
/// `n_` must be rejected, `i_` may go either way but must not crash.
final class JSONTestSuiteTests: XCTestCase {
  static let directory: String = {
    let file = #filePath
    let folder = file[..<(file.lastIndex(of: "/") ?? file.endIndex)]
    return folder + "/JSONTestSuite/test_parsing"
  }()

  func cases(prefix: String) throws -> [(name: String, bytes: [UInt8])] {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      let data = try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + name))
      return (name, [UInt8](data))
    }
  }

  func testAllCasesArePresent() throws {
    let all = try FileManager.default.contentsOfDirectory(atPath: Self.directory)
    XCTAssertEqual(all.filter { $0.hasSuffix(".json") }.count, 318)
  }

  func testAcceptsEveryValidText() throws {
    let cases = try cases(prefix: "y_")
    XCTAssertEqual(cases.count, 95)
    for (name, bytes) in cases {
      XCTAssertNoThrow(try JSONParser.parse(bytes), name)
    }
  }

  func testRejectsEveryInvalidText() throws {
    let cases = try cases(prefix: "n_")
    XCTAssertEqual(cases.count, 188)
    for (name, bytes) in cases {
      XCTAssertThrowsError(try JSONParser.parse(bytes), name)
    }
  }

  func testImplementationDefinedCasesDoNotCrash() throws {
    for (_, bytes) in try cases(prefix: "i_") {
      _ = try? JSONParser.parse(bytes)
    }
  }

  /// Valid texts survive a write and a second parse unchanged.
  func testValidTextsRoundTrip() throws {
    for (name, bytes) in try cases(prefix: "y_") {
      let value = try JSONParser.parse(bytes)
      XCTAssertEqual(try JSONParser.parse(value.serialized()), value, name)
    }
  }
}
