import CSQLite
import Glibc
import Synchronization
import XCTest

@testable import Services

/// `SQLiteConnection.writeBatched`: concurrent writers share durable commits.
final class SQLiteGroupCommitTests: XCTestCase {
  private var directory: SQLiteTestDirectory!

  override func setUpWithError() throws {
    directory = try SQLiteTestDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  /// A connection with synchronous=FULL (the default) whose commits `counter` counts.
  private func connection(counting counter: SQLiteCommitCounter) async throws -> SQLiteConnection {
    let connection = try SQLiteConnection(path: directory.file()) { database in
      try database.execute(
        "CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, task INTEGER, n INTEGER, UNIQUE (task, n))"
      )
      try counter.install(on: database)
    }
    try await connection.open()
    let synchronous = try await connection.read {
      try $0.queryOne("PRAGMA synchronous") { try $0.int(0) }
    }
    XCTAssertEqual(synchronous, 2, "FULL")
    return connection
  }

  private static func insert(_ task: Int, _ n: Int) -> @Sendable (SQLiteDatabase) throws -> Int64 {
    { database in
      try database.run(
        "INSERT INTO items (task, n) VALUES (?, ?)", [SQLiteValue(task), SQLiteValue(n)])
      return database.lastInsertRowID
    }
  }

  func testConcurrentWritersShareCommitsAndAllRowsAreDurable() async throws {
    let counter = SQLiteCommitCounter()
    let connection = try await connection(counting: counter)
    let tasks = 64
    let perTask = 50
    let commitsBefore = counter.count
    let start = sqliteTestSeconds()
    let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
      for task in 0..<tasks {
        group.addTask {
          var ids: [Int64] = []
          for n in 0..<perTask {
            ids.append(try await connection.writeBatched(Self.insert(task, n)))
          }
          return ids
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    let batchedSeconds = sqliteTestSeconds() - start
    let commits = counter.count - commitsBefore
    let inserts = tasks * perTask

    // For comparison: one commit per insert.
    let unbatched = 640
    let unbatchedStart = sqliteTestSeconds()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask {
          for n in 0..<(unbatched / tasks) {
            _ = try await connection.write(Self.insert(1000 + task, n))
          }
        }
      }
      try await group.waitForAll()
    }
    let unbatchedSeconds = sqliteTestSeconds() - unbatchedStart
    print(
      "SQLite group commit, synchronous=FULL, \(tasks) tasks: \(inserts) inserts in "
        + "\(Int(batchedSeconds * 1000)) ms = \(Int(Double(inserts) / batchedSeconds)) inserts/s, "
        + "\(commits) commits (\(inserts / max(commits, 1)) per commit); one commit per write: "
        + "\(Int(Double(unbatched) / unbatchedSeconds)) inserts/s")

    XCTAssertEqual(ids.count, inserts)
    XCTAssertEqual(Set(ids).count, inserts, "every caller got its own row id")
    XCTAssertLessThan(commits, inserts / 4, "writes arriving together share a commit")
    XCTAssertGreaterThan(commits, 0)
    // Everything is in the file, as a fresh connection sees it.
    let reader = try SQLiteDatabase(path: directory.file(), readOnly: true)
    XCTAssertEqual(
      try reader.queryOne("SELECT count(*) FROM items WHERE task < 1000") { try $0.int(0) }, inserts
    )
    XCTAssertEqual(try reader.integrityCheck(), "ok")
  }

  func testAFailingBodyRollsBackAloneAndOthersCommitTogether() async throws {
    let counter = SQLiteCommitCounter()
    let connection = try await connection(counting: counter)
    let reader = try SQLiteConnection(path: directory.file(), options: .init(readOnly: true))
    try await connection.writeBatched(Self.insert(99, 0))  // a row for the UNIQUE conflict below
    let commitsBefore = counter.count

    // Keep the connection's thread busy so that the writers below queue up
    // behind it and land in one batch.
    let gate = SQLiteTestGate()
    let blocker = try await gate.block(connection, until: 10)

    enum Outcome: Equatable {
      case inserted(visibleAfterReturn: Bool)
      case failed(String)
    }
    let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
      for task in 0..<10 {
        group.addTask {
          gate.arrive()
          do {
            let id = try await connection.writeBatched { database in
              if task == 3 {
                // Writes, then fails: its row must vanish with it.
                try database.run("INSERT INTO items (task, n) VALUES (3, 0)")
                throw SQLiteTestFailure(id: 3)
              }
              // A constraint failure, caught by SQLite, not by the body.
              return try Self.insert(task == 7 ? 99 : task, 0)(database)
            }
            // Resumed only after the commit: another connection sees the row.
            let visible = try await reader.read { database in
              try database.queryOne("SELECT 1 FROM items WHERE id = ?", [.integer(id)]) { _ in true
              }
            }
            return (task, .inserted(visibleAfterReturn: visible == true))
          } catch let error as SQLiteTestFailure {
            return (task, .failed("body \(error.id)"))
          } catch let error as SQLiteError {
            return (task, .failed(error.isConstraint ? "constraint" : "\(error)"))
          } catch {
            return (task, .failed("\(error)"))
          }
        }
      }
      return await group.reduce(into: [Int: Outcome]()) { $0[$1.0] = $1.1 }
    }
    _ = try await blocker.value

    for task in 0..<10 {
      switch task {
      case 3: XCTAssertEqual(outcomes[task], .failed("body 3"))
      case 7: XCTAssertEqual(outcomes[task], .failed("constraint"))
      default: XCTAssertEqual(outcomes[task], .inserted(visibleAfterReturn: true), "task \(task)")
      }
    }
    XCTAssertEqual(counter.count - commitsBefore, 1, "the ten writers shared one commit")
    let tasks = try await reader.read {
      try $0.query("SELECT task FROM items WHERE task < 99 ORDER BY task") { try $0.int(0) }
    }
    XCTAssertEqual(tasks, [0, 1, 2, 4, 5, 6, 8, 9])
  }

  func testALoneBatchedWriteCommitsAtOnce() async throws {
    let counter = SQLiteCommitCounter()
    let connection = try await connection(counting: counter)
    let before = counter.count
    for n in 0..<5 {
      try await connection.writeBatched(Self.insert(0, n))
    }
    XCTAssertEqual(counter.count - before, 5)
  }

  func testBatchesAreCappedAndEveryWriterIsServed() async throws {
    let counter = SQLiteCommitCounter()
    let connection = try SQLiteConnection(path: directory.file(), maxBatchSize: 4) { database in
      try database.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, task INTEGER, n INTEGER)")
      try counter.install(on: database)
    }
    try await connection.open()
    let before = counter.count
    let gate = SQLiteTestGate()
    let blocker = try await gate.block(connection, until: 10)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<10 {
        group.addTask {
          gate.arrive()
          _ = try await connection.writeBatched(Self.insert(task, 0))
        }
      }
      try await group.waitForAll()
    }
    _ = try await blocker.value
    XCTAssertEqual(counter.count - before, 3, "10 writers in batches of 4, 4 and 2")
    let count = try await connection.read {
      try $0.queryOne("SELECT count(*) FROM items") { try $0.int(0) }
    }
    XCTAssertEqual(count, 10)
  }
}
