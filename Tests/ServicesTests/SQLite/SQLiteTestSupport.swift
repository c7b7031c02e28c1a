import CSQLite
import Foundation
import Synchronization
import XCTest

@testable import Services

/// A fresh directory for one test's database files, removed by `remove()`.
struct SQLiteTestDirectory {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.path + "/catalogd-sqlite-tests-\(UUID())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String = "test.sqlite") -> String { path + "/" + name }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Counts the commits of the connections it is installed on (`sqlite3_commit_hook`).
final class SQLiteCommitCounter: Sendable {
  private let commits = Atomic<Int>(0)

  var count: Int { commits.load(ordering: .sequentiallyConsistent) }

  /// Installs the hook; the counter must outlive the connection.
  func install(on database: SQLiteDatabase) throws {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_commit_hook(
      try database.openConnection(),
      { context in
        guard let context else { return 0 }
        Unmanaged<SQLiteCommitCounter>.fromOpaque(context).takeUnretainedValue().commits.add(
          1, ordering: .sequentiallyConsistent)
        return 0  // let the commit go on
      }, context)
  }
}

/// The error a test body throws on purpose.
struct SQLiteTestFailure: Error, Equatable {
  let id: Int
}

/// Monotonic seconds.
func sqliteTestSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Asserts that `body` throws an `SQLiteError` and returns it.
func assertSQLiteError(
  _ body: @autoclosure () throws -> some Any, file: StaticString = #filePath, line: UInt = #line
) -> SQLiteError? {
  do {
    _ = try body()
    XCTFail("expected an SQLiteError", file: file, line: line)
    return nil
  } catch let error as SQLiteError {
    return error
  } catch {
    XCTFail("expected an SQLiteError, got \(error)", file: file, line: line)
    return nil
  }
}

/// Blocks a connection's thread until a number of tasks are about to call it,
/// so that their calls queue up behind the block and run back to back.
final class SQLiteTestGate: Sendable {
  /// Whether the blocking body runs.
  private let isBlocking = Atomic<Bool>(false)
  /// How many tasks called `arrive`.
  private let arrivals = Atomic<Int>(0)

  /// Counts a task that calls the connection right after.
  func arrive() {
    arrivals.add(1, ordering: .sequentiallyConsistent)
  }

  /// Occupies the connection's thread, returning once it does, until `count`
  /// tasks arrived (or 10 s passed), then 50 ms more for their calls to be
  /// enqueued.
  func block(_ connection: SQLiteConnection, until count: Int) async throws -> Task<Void, any Error>
  {
    let task = Task {
      try await connection.read { _ in
        self.isBlocking.store(true, ordering: .sequentiallyConsistent)
        let deadline = sqliteTestSeconds() + 10
        while self.arrivals.load(ordering: .sequentiallyConsistent) < count,
          sqliteTestSeconds() < deadline
        {
          usleep(1_000)
        }
        usleep(50_000)
      }
    }
    while !isBlocking.load(ordering: .sequentiallyConsistent) {
      try await Task.sleep(for: .milliseconds(1))
    }
    return task
  }
}
