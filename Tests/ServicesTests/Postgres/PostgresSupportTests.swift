import XCTest

@testable import Services

/// The parts of the PostgreSQL layer that need no server; the backend itself
/// is tested end to end against a real cluster (Tests/EndToEnd).
final class PostgresSupportTests: XCTestCase {
  func testArrayLiteralsQuoteEveryValueAndKeepNulls() {
    XCTAssertEqual(PostgresArray.literal([]), "{}")
    XCTAssertEqual(PostgresArray.literal(["a", nil, ""]), #"{"a",NULL,""}"#)
    XCTAssertEqual(
      PostgresArray.literal([#"say "hi"\"#, "NULL", "{,}", "한글 😀"]),
      #"{"say \"hi\"\\","NULL","{,}","한글 😀"}"#)
  }

  func testArrayLiteralsEscapeAQuoteThatACombiningMarkFollows() {
    // One Character ("\u{22}\u{301}"), two scalars: the quote must still be escaped.
    XCTAssertEqual(PostgresArray.literal(["a\"\u{301}b"]), "{\"a\\\"\u{301}b\"}")
  }

  func testWhichFailuresAreUnavailableAndWhichAreRetriedInPlace() {
    XCTAssertTrue(PostgresError(kind: .connection, message: "refused").isUnavailable)
    for state in ["08006", "57P01", "57P03", "57014", "53300"] {
      XCTAssertTrue(
        PostgresError(kind: .statement, sqlState: state, message: "").isUnavailable, state)
    }
    for state in ["23503", "40001", "42P01"] {
      XCTAssertFalse(
        PostgresError(kind: .statement, sqlState: state, message: "").isUnavailable, state)
    }
    XCTAssertTrue(PostgresError(kind: .statement, sqlState: "40001", message: "").isTransient)
    XCTAssertTrue(PostgresError(kind: .statement, sqlState: "40P01", message: "").isTransient)
    XCTAssertFalse(PostgresError(kind: .statement, sqlState: "23505", message: "").isTransient)
  }

  func testMessagesAreKeptOnOneLine() {
    let error = PostgresError(
      kind: .connection, message: "connection refused\n\tIs the server running?\n")
    XCTAssertEqual(error.message, "connection refused \tIs the server running?")
  }

  func testLikePatternsEscapeWildcardsAndFoldCase() {
    XCTAssertEqual(ProductSearch.likePattern("MiLK"), "%milk%")
    XCTAssertEqual(ProductSearch.likePattern(#"10%_\"#), #"%10\%\_\\%"#)
    XCTAssertEqual(ProductSearch.likePattern("ÉCOLE"), "%école%")
  }

  func testUnreachableServerFailsAsAConnectionError() throws {
    // Port 1 on loopback: nothing listens there, so the refusal is immediate.
    XCTAssertThrowsError(
      try PostgresSession(
        url: "postgres://nobody@127.0.0.1:1/none", applicationName: "test",
        connectTimeoutSeconds: 2)
    ) { error in
      XCTAssertEqual((error as? PostgresError)?.kind, .connection)
      XCTAssertTrue((error as? PostgresError)?.isUnavailable ?? false)
    }
  }
}
