import XCTest

@testable import Services

/// A thread's read-only connections: each read its own snapshot, except
/// inside a burst, whose reads share the one its first read began.
final class SQLiteThreadReadersTests: XCTestCase {
  private var directory: SQLiteTestDirectory!

  override func tearDown() {
    directory?.remove()
  }

  /// A file with a table `t` holding 1, its writer and its thread readers.
  private func makeFile() throws -> (writer: SQLiteDatabase, readers: SQLiteThreadReaders) {
    directory = try SQLiteTestDirectory()
    let path = directory.file()
    let writer = try SQLiteDatabase(path: path)
    try writer.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)")
    return (writer, SQLiteThreadReaders(path: path))
  }

  func testEachReadSeesEveryCommitBeforeItAndABurstKeepsOneSnapshot() throws {
    let (writer, readers) = try makeFile()
    func newest() throws -> Int? {
      try readers.read { database in
        try database.queryOne("SELECT max(v) FROM t", []) { try $0.int(0) }
      } ?? nil
    }
    XCTAssertEqual(try newest(), 1)
    try writer.run("INSERT INTO t VALUES (2)", [])
    XCTAssertEqual(try newest(), 2, "a read begun after a commit sees it")

    SQLiteThreadReaders.beginBurst()
    XCTAssertEqual(try newest(), 2)
    try writer.run("INSERT INTO t VALUES (3)", [])
    XCTAssertEqual(try newest(), 2, "the burst's reads share its first read's snapshot")
    SQLiteThreadReaders.endBurst()
    XCTAssertEqual(try newest(), 3, "after the burst, a new snapshot")
    SQLiteThreadReaders.beginBurst()
    XCTAssertEqual(try newest(), 3)
    SQLiteThreadReaders.endBurst()
  }

  /// A one-statement read alone in its burst is its own transaction: no
  /// `BEGIN` is left open behind it. The burst's next read begins the
  /// transaction the rest share, so it sees what was committed in between.
  func testAOneStatementReadBeginsNoTransactionAndTheBurstsNextReadDoes() throws {
    let (writer, readers) = try makeFile()
    func newest() throws -> (value: Int?, inTransaction: Bool)? {
      try readers.readStatement { database in
        let value = try database.queryOne("SELECT max(v) FROM t", []) { try $0.int(0) }
        return (value, database.isInTransaction)
      }
    }

    SQLiteThreadReaders.beginBurst()
    let alone = try XCTUnwrap(newest())
    XCTAssertEqual(alone.value, 1)
    XCTAssertFalse(alone.inTransaction, "the first read of a burst is its statement's own")
    XCTAssertFalse(try readers.database().isInTransaction)
    try writer.run("INSERT INTO t VALUES (2)", [])
    let second = try XCTUnwrap(newest())
    XCTAssertEqual(second.value, 2, "the burst's transaction begins at its second read")
    XCTAssertTrue(second.inTransaction)
    try writer.run("INSERT INTO t VALUES (3)", [])
    XCTAssertEqual(try newest()?.value, 2, "the rest share the second read's snapshot")
    SQLiteThreadReaders.endBurst()
    XCTAssertFalse(try readers.database().isInTransaction)
    XCTAssertEqual(try newest()?.value, 3, "outside a burst, each read its own snapshot")
  }
}
