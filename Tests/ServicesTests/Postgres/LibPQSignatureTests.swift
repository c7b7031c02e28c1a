import CLibPQ
import XCTest

@testable import Services

/// The daemon opens libpq with dlopen and declares what it calls itself
/// (`LibPQ`), so that it neither links libpq nor loads it at start-up. These
/// tests hold those declarations to libpq-fe.h: a function whose C type
/// differs does not compile here, and constants and layouts are compared.
final class LibPQSignatureTests: XCTestCase {
  /// Compiles only when `function` has the type of the `LibPQ` member.
  private func matches<T>(_ member: KeyPath<LibPQ, T>, _ function: T) {}

  func testFunctionsHaveTheHeadersTypes() {
    matches(\.connectdbParams, PQconnectdbParams)
    matches(\.errorMessage, PQerrorMessage)
    matches(\.finish, PQfinish)
    matches(\.setNoticeProcessor, PQsetNoticeProcessor)
    matches(\.consumeInput, PQconsumeInput)
    matches(\.socket, PQsocket)
    matches(\.execParams, PQexecParams)
    matches(\.exec, PQexec)
    matches(\.prepare, PQprepare)
    matches(\.execPrepared, PQexecPrepared)
    matches(\.freemem, PQfreemem)
    matches(\.clear, PQclear)
    matches(\.ntuples, PQntuples)
    matches(\.nfields, PQnfields)
    matches(\.getisnull, PQgetisnull)
    matches(\.getvalue, PQgetvalue)
    matches(\.cmdTuples, PQcmdTuples)
    matches(\.resultErrorField, PQresultErrorField)
  }

  /// `PQstatus` and `PQresultStatus` return C enums, declared as their raw
  /// 32-bit values; `PQnotifies` returns a `PGnotify` read by offset.
  func testEnumsConstantsAndLayoutsAreTheHeaders() {
    XCTAssertEqual(MemoryLayout<ConnStatusType>.size, MemoryLayout<LibPQ.Status>.size)
    XCTAssertEqual(MemoryLayout<ExecStatusType>.size, MemoryLayout<LibPQ.Status>.size)
    XCTAssertEqual(CONNECTION_OK.rawValue, LibPQ.connectionOK)
    XCTAssertEqual(PGRES_COMMAND_OK.rawValue, LibPQ.commandOK)
    XCTAssertEqual(PGRES_TUPLES_OK.rawValue, LibPQ.tuplesOK)
    XCTAssertEqual(CATALOGD_PG_DIAG_SQLSTATE, LibPQ.sqlStateField)
    XCTAssertEqual(CATALOGD_PG_DIAG_MESSAGE_PRIMARY, LibPQ.messageField)
    XCTAssertEqual(MemoryLayout<PGnotify>.offset(of: \.relname), LibPQ.notifyRelnameOffset)
    XCTAssertEqual(MemoryLayout<PGnotify>.offset(of: \.extra), LibPQ.notifyExtraOffset)
  }

  func testTheLibraryLoadsAndHasEverySymbol() throws {
    XCTAssertNoThrow(try LibPQ.loaded())
  }
}
