import Protocol
import Services
import XCTest

@testable import Daemon

final class WireErrorTests: XCTestCase {
  // SQLite's result codes (sqlite3.h).
  private let busy: Int32 = 5
  private let locked: Int32 = 6
  private let busySnapshot: Int32 = 5 | (2 << 8)
  private let corrupt: Int32 = 11
  private let full: Int32 = 13

  /// Two daemons on one data dir is a supported setup: a write that still
  /// meets the other's lock after the retries is worth trying again.
  func testADatabaseBusyPastTheRetriesIsRetryableUnavailability() {
    for code in [busy, locked, busySnapshot] {
      let error = wireError(
        SQLiteError(code: code, message: "database is locked", sql: "BEGIN IMMEDIATE"),
        method: "products/create")
      XCTAssertEqual(error.code, RPCError.upstreamUnavailableCode)
      XCTAssertEqual(error.data?["service"], "products")
      XCTAssertEqual(error.data?["retryable"], true)
      XCTAssertFalse(
        "\(error.message) \(error.data ?? .null)".contains("BEGIN"), "no SQL reaches the client")
    }
  }

  func testADiskFullSaysTheChangeWasNotSaved() {
    let error = wireError(
      SQLiteError(code: full, message: "database or disk is full", sql: "INSERT …"),
      method: "products/update")
    XCTAssertEqual(error.code, RPCError.storageFullCode)
    XCTAssertTrue(error.message.english.hasPrefix("Not saved"), error.message.english)
    XCTAssertEqual(error.data?["retryable"], true)
  }

  func testOtherDatabaseErrorsStayInternal() {
    let error = wireError(
      SQLiteError(code: corrupt, message: "malformed", sql: nil), method: "products/get")
    XCTAssertEqual(error, .internalError)
  }
}
