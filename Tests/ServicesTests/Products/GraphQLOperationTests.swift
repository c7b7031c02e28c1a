import Foundation
import XCTest

@testable import Services

final class GraphQLOperationTests: XCTestCase {
  /// `operations.graphql` is what the backend sends: its operations, comments
  /// aside, are exactly the backend's documents, in order.
  func testTheOperationsFileHoldsTheDocumentsSent() throws {
    let file = GraphQLTestUpstream.repository.appending(
      path: "Sources/Services/Products/Upstream/operations.graphql")
    let text = try String(contentsOf: file, encoding: .utf8)
    let withoutComments = text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("#") }.joined(separator: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(
      withoutComments, GraphQLOperation.all.map(\.document).joined(separator: "\n\n"))
  }

  func testEachDocumentIsOneOperationNamedAfterItsFieldAndBindsItsVariables() {
    XCTAssertEqual(Set(GraphQLOperation.all.map(\.name)).count, GraphQLOperation.all.count)
    for operation in GraphQLOperation.all {
      let firstLine = operation.document.prefix { $0 != "\n" }
      XCTAssertTrue(
        firstLine.hasPrefix("query \(operation.name)")
          || firstLine.hasPrefix("mutation \(operation.name)"), String(firstLine))
      let kinds = operation.document.split(separator: "\n").filter {
        $0.hasPrefix("query ") || $0.hasPrefix("mutation ") || $0.hasPrefix("fragment ")
      }
      XCTAssertEqual(kinds.count, 1, operation.name)
      XCTAssertTrue(operation.document.contains("  \(operation.field)"), operation.name)
      XCTAssertFalse(operation.document.contains("\""), "no literal values: \(operation.name)")
    }
  }
}
