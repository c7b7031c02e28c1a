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
