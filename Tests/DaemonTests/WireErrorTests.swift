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

  /// A failed image download names the URL's host, in both languages:
  /// -32020 (retryable) when it could not be reached, -32021 for what it sent.
  func testImageDownloadFailuresNameTheHost() {
    let cases: [(ImageFetchError, Int)] = [
      (.unavailable(host: "img.example", reason: "timed out"), RPCError.upstreamUnavailableCode),
      (.badStatus(host: "img.example", status: 500), RPCError.upstreamErrorCode),
      (.tooLarge(host: "img.example", limit: 1_048_576), RPCError.upstreamErrorCode),
      (.notAnImage(host: "img.example"), RPCError.upstreamErrorCode),
      (.failed(host: "img.example", reason: "too many redirects"), RPCError.upstreamErrorCode),
    ]
    for (failure, code) in cases {
      let error = wireError(failure, method: "images/get")
      XCTAssertEqual(error.code, code, "\(failure)")
      XCTAssertEqual(error.data?["host"], "img.example")
      XCTAssertEqual(error.data?["service"], "images")
      for locale in [MessageLocale.english, .korean] {
        let message = error.message.text(in: locale)
        XCTAssertTrue(message.contains("img.example"), message)
        XCTAssertFalse(message.contains("{"), message)
      }
    }
    XCTAssertEqual(
      wireError(ImageFetchError.badStatus(host: "img.example", status: 404), method: "images/get")
        .data?["status"], 404)
  }
}
