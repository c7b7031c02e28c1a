import CSQLite
import Glibc
import Synchronization
import XCTest

@testable import Services

/// `SQLiteConnection`: the actor on its own thread, reads, writes, busy handling.
final class SQLiteConnectionTests: XCTestCase {
  private var directory: SQLiteTestDirectory!

  override func setUpWithError() throws {
    directory = try SQLiteTestDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  private func connection(
    _ name: String = "test.sqlite", options: SQLiteDatabase.Options = .init(),
    busyRetries: Int = 3
  ) throws -> SQLiteConnection {
    try SQLiteConnection(path: directory.file(name), options: options, busyRetries: busyRetries) {
      try $0.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, who TEXT)")
    }
  }

  func testEveryCallRunsOnTheConnectionsOwnThread() async throws {
    let connection = try connection()
    let testThread = pthread_self()
    let readThread = try await connection.read { _ in pthread_self() }
    let writeThread = try await connection.write { _ in pthread_self() }
    let batchedThread = try await connection.writeBatched { _ in pthread_self() }
    XCTAssertEqual(readThread, writeThread)
    XCTAssertEqual(readThread, batchedThread)
    XCTAssertEqual(pthread_equal(readThread, testThread), 0)
    // From a child task on the cooperative pool too.
    let fromTask = try await Task.detached { try await connection.read { _ in pthread_self() } }
      .value
    XCTAssertEqual(fromTask, readThread)
  }

  func testTheExecutorKnowsItsThread() async throws {
    let executor = try XCTUnwrap(ThreadExecutor())
    defer { executor.stop() }
    XCTAssertEqual(executor.isIsolatingCurrentContext(), false)
    let connection = try connection()
    let onThread = try await connection.read { _ in
      // `assumeIsolated` checks the executor: it would trap off the thread.
      connection.assumeIsolated { _ in true }
    }
    XCTAssertTrue(onThread)
  }

  func testReadSeesOneSnapshotAndWriteRollsBackOnError() async throws {
    let connection = try connection()
    try await connection.write { try $0.run("INSERT INTO t (who) VALUES ('a')") }
    do {
      try await connection.write { database in
        try database.run("INSERT INTO t (who) VALUES ('b')")
        throw SQLiteTestFailure(id: 1)
      }
      XCTFail("expected the body's error")
    } catch {
      XCTAssertEqual(error as? SQLiteTestFailure, SQLiteTestFailure(id: 1))
    }
    let names = try await connection.read { database in
      XCTAssertTrue(database.isInTransaction)
      return try database.query("SELECT who FROM t") { try $0.text(0) }
    }
    XCTAssertEqual(names, ["a"])
    let inserted = try await connection.write { database in
      try database.run("INSERT INTO t (who) VALUES ('c')")
      return database.lastInsertRowID
    }
    XCTAssertEqual(inserted, 2)  // the rolled-back row left no trace
  }

  func testOpensLazilyAndReportsAndRetriesAFailedOpen() async throws {
    let path = directory.file("later/db.sqlite")
    let connection = try SQLiteConnection(path: path)
    do {
      try await connection.open()
      XCTFail("expected SQLITE_CANTOPEN")
    } catch {
      XCTAssertEqual((error as? SQLiteError)?.code, SQLITE_CANTOPEN)
    }
    try FileManager.default.createDirectory(
      atPath: directory.file("later"), withIntermediateDirectories: true)
    let mode = try await connection.read { try $0.journalMode() }
    XCTAssertEqual(mode, "wal")
    await connection.close()
    do {
      _ = try await connection.read { _ in 1 }
      XCTFail("expected SQLITE_MISUSE after close")
    } catch {
      XCTAssertEqual((error as? SQLiteError)?.code, SQLITE_MISUSE)
    }
  }

  func testConfigureMigratesOnceAcrossConnections() async throws {
    let migrations = [
      SQLiteMigration(version: 1, sql: "CREATE TABLE m (x)"),
      SQLiteMigration(version: 2) { try $0.run("INSERT INTO m VALUES (1)") },
    ]
    for _ in 0..<3 {
      let connection = try SQLiteConnection(path: directory.file()) { try $0.migrate(migrations) }
      let count = try await connection.read {
        try $0.queryOne("SELECT count(*) FROM m") { try $0.int(0) }
      }
      XCTAssertEqual(count, 1)
    }
  }

  func testTwoConnectionsWritingConcurrentlyAllCommit() async throws {
    let first = try connection()
    let second = try connection()
    try await first.open()
    try await second.open()
    let perConnection = 200
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (connection, who) in [(first, "first"), (second, "second")] {
        for _ in 0..<perConnection {
          group.addTask {
            _ = try await connection.write {
              try $0.run("INSERT INTO t (who) VALUES (?)", [.text(who)])
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let counts = try await first.read { database in
      try database.query("SELECT who, count(*) FROM t GROUP BY who ORDER BY who") {
        try "\($0.text(0))=\($0.int(1))"
      }
    }
    XCTAssertEqual(counts, ["first=\(perConnection)", "second=\(perConnection)"])
    let check = try await second.read { try $0.integrityCheck() }
    XCTAssertEqual(check, "ok")
  }

  /// Holds the write lock of the file from `holder` for `seconds`, and returns
  /// once the lock is taken.
  private func holdWriteLock(_ holder: SQLiteConnection, for seconds: Double) async throws
    -> Task<Void, any Error>
  {
    let taken = Atomic<Bool>(false)
    let task = Task {
      try await holder.write { database in
        try database.run("INSERT INTO t (who) VALUES ('holder')")
        taken.store(true, ordering: .sequentiallyConsistent)
        usleep(UInt32(seconds * 1_000_000))
      }
    }
    while !taken.load(ordering: .sequentiallyConsistent) {
      try await Task.sleep(for: .milliseconds(1))
    }
    return task
  }

  func testAWriteRetriesBeginAfterTheBusyTimeout() async throws {
    let holder = try connection()
    // 10 ms of busy timeout per try, and backoffs of 10–20, 20–40, … ms: about
    // 1.3 s in all before it would give up, far longer than the 150 ms hold.
    let writer = try connection(options: .init(busyTimeoutMilliseconds: 10), busyRetries: 6)
    try await writer.open()
    let hold = try await holdWriteLock(holder, for: 0.15)
    let start = sqliteTestSeconds()
    try await writer.write { try $0.run("INSERT INTO t (who) VALUES ('writer')") }
    let waited = sqliteTestSeconds() - start
    try await hold.value
    print("SQLite busy: the write got the lock after \(Int(waited * 1000)) ms of retries")
    let names = try await writer.read {
      try $0.query("SELECT who FROM t ORDER BY id") { try $0.text(0) }
    }
    XCTAssertEqual(names, ["holder", "writer"])
  }

  func testAWriteThatStaysBusyThrowsABusyError() async throws {
    let holder = try connection()
    let writer = try connection(options: .init(busyTimeoutMilliseconds: 10), busyRetries: 0)
    try await writer.open()
    let hold = try await holdWriteLock(holder, for: 0.3)
    do {
      try await writer.write { try $0.run("INSERT INTO t (who) VALUES ('writer')") }
      XCTFail("expected SQLITE_BUSY")
    } catch let error as SQLiteError {
      XCTAssertTrue(error.isBusy, "\(error)")
      XCTAssertEqual(error.sql, "BEGIN IMMEDIATE")
    }
    try await hold.value
    // Reads go on while another connection writes (WAL).
    let count = try await writer.read {
      try $0.queryOne("SELECT count(*) FROM t") { try $0.int(0) }
    }
    XCTAssertEqual(count, 1)
  }

  func testReadRoundTripCostsMicroseconds() async throws {
    let connection = try connection()
    try await connection.open()
    for _ in 0..<200 {  // warm up
      _ = try await connection.read { _ in 0 }
    }
    var samples: [Double] = []
    for _ in 0..<2000 {
      let start = sqliteTestSeconds()
      _ = try await connection.read { _ in 0 }
      samples.append(sqliteTestSeconds() - start)
    }
    samples.sort()
    let query = sqliteTestSeconds()
    for id in 0..<2000 {
      _ = try await connection.read { database in
        try database.queryOne("SELECT who FROM t WHERE id = ?", [.integer(Int64(id))]) {
          try $0.text(0)
        }
      }
    }
    let queryMean = (sqliteTestSeconds() - query) / 2000
    let mean = samples.reduce(0, +) / Double(samples.count)
    print(
      "SQLite read round trip (empty body, BEGIN/COMMIT included): "
        + "p50 \(Int(samples[1000] * 1e6)) µs, p99 \(Int(samples[1980] * 1e6)) µs, "
        + "mean \(Int(mean * 1e6)) µs; with a point query: mean \(Int(queryMean * 1e6)) µs")
    XCTAssertEqual(samples.count, 2000)
  }
}
