import CSQLite
import Dispatch
import Synchronization
import XCTest

@testable import Services

/// `SQLiteDatabase`, `SQLiteStatement` and `SQLiteValue` on real files.
final class SQLiteDatabaseTests: XCTestCase {
  private var directory: SQLiteTestDirectory!

  override func setUpWithError() throws {
    directory = try SQLiteTestDirectory()
  }

  override func tearDown() {
    directory.remove()
  }

  private func open(_ name: String = "test.sqlite", options: SQLiteDatabase.Options = .init())
    throws -> SQLiteDatabase
  {
    try SQLiteDatabase(path: directory.file(name), options: options)
  }

  // MARK: Opening

  /// SQLite is set up before the process's first connection with its memory
  /// statistics off (they take a process-wide mutex at each allocation): it
  /// then counts nothing.
  func testMemoryStatisticsAreOff() throws {
    let database = try open()
    try database.execute("CREATE TABLE t (x TEXT)")
    try database.execute("INSERT INTO t VALUES (hex(randomblob(10000)))")
    XCTAssertEqual(sqlite3_memory_used(), 0)
  }

  /// Switching a new file to WAL needs it to itself and SQLite does not wait
  /// for that: connections opening one new file together must still all open.
  func testConnectionsOpeningANewFileTogetherAllOpenInWAL() throws {
    for round in 0..<20 {
      let path = directory.file("race-\(round).sqlite")
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        do {
          let database = try SQLiteDatabase(path: path)
          if try database.journalMode() != "wal" {
            failures.withLock { $0.append("not in WAL") }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      XCTAssertEqual(failures.withLock { $0 }, [], "round \(round)")
    }
  }

  // MARK: Values

  func testBindsAndReadsEveryTypeIncludingUnicodeAndInt64Extremes() throws {
    let database = try open()
    try database.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value ANY) STRICT")
    let values: [SQLiteValue] = [
      .integer(.max), .integer(.min), 0, -1,
      3.25, -0.5, .real(.greatestFiniteMagnitude), .real(-.infinity),
      "", "신선한 우유 1L", "👩‍👩‍👧 e\u{301} ü", "a\u{0}b", "O'Reilly; DROP TABLE v; --",
      .blob([]), .blob([0, 255, 1, 0]), .blob(Array(0...255)),
      nil, true, false,
    ]
    for (index, value) in values.enumerated() {
      try database.run("INSERT INTO v (id, value) VALUES (?, ?)", [SQLiteValue(index), value])
    }
    let read = try database.query("SELECT value FROM v ORDER BY id") { try $0.value(0) }
    XCTAssertEqual(read, values.map { $0 == true ? 1 : $0 == false ? 0 : $0 })

    // Typed reads, by index and by name.
    let row = try XCTUnwrap(
      database.queryOne(
        "SELECT ? AS big, ? AS small, ? AS korean, ? AS bytes, ? AS absent, ? AS real, ? AS flag",
        [.integer(.max), .integer(.min), "신선한 우유 1L", .blob([1, 2]), nil, 2.5, true]
      ) { row in
        try (
          row.int64(0), row.int64("small"), row.text("KOREAN"), row.blob(3), row.isNull("absent"),
          row.double(5), row.bool("flag"), row.int(0)
        )
      })
    XCTAssertEqual(row.0, Int64.max)
    XCTAssertEqual(row.1, Int64.min)
    XCTAssertEqual(row.2, "신선한 우유 1L")
    XCTAssertEqual(row.3, [1, 2])
    XCTAssertTrue(row.4)
    XCTAssertEqual(row.5, 2.5)
    XCTAssertTrue(row.6)
    XCTAssertEqual(row.7, Int.max)
    // An INTEGER reads as a double; TEXT reads as its bytes.
    XCTAssertEqual(try database.queryOne("SELECT 7") { try $0.double(0) }, 7)
    XCTAssertEqual(try database.queryOne("SELECT 'é'") { try $0.blob(0) }, [0xC3, 0xA9])
  }

  func testValuesConvertFromSwiftTypesAndOptionals() {
    let none: Int? = nil
    let some: String? = "x"
    XCTAssertEqual(SQLiteValue(none), .null)
    XCTAssertEqual(SQLiteValue(some), .text("x"))
    XCTAssertEqual(SQLiteValue(42), .integer(42))
    XCTAssertEqual(SQLiteValue(Int64.min), .integer(.min))
    XCTAssertEqual(SQLiteValue(Int32(7)), .integer(7))
    XCTAssertEqual(SQLiteValue(1.5), .real(1.5))
    XCTAssertEqual(SQLiteValue(true), .integer(1))
    XCTAssertEqual(SQLiteValue([UInt8]([9])), .blob([9]))
    XCTAssertEqual(SQLiteValue("ab".dropFirst()), .text("b"))
    let literals: [SQLiteValue] = [nil, 1, 1.5, "s", false]
    XCTAssertEqual(literals, [.null, .integer(1), .real(1.5), .text("s"), .integer(0)])
    XCTAssertEqual(SQLiteValue.integer(3).doubleValue, 3)
    XCTAssertEqual(SQLiteValue.text("t").textValue, "t")
    XCTAssertNil(SQLiteValue.text("t").int64Value)
    XCTAssertEqual(SQLiteValue.blob([1]).blobValue, [1])
    XCTAssertTrue(SQLiteValue.null.isNull)
  }

  func testNamedParameters() throws {
    let database = try open()
    try database.execute("CREATE TABLE p (a, b, c)")
    try database.run("INSERT INTO p VALUES (:a, @b, $c)", ["a": 1, "@b": "two", "c": nil])
    let row = try database.queryOne("SELECT a, b, c FROM p WHERE a = :a", ["a": 1]) {
      try ($0.int64(0), $0.text(1), $0.isNull(2))
    }
    XCTAssertEqual(row?.0, 1)
    XCTAssertEqual(row?.1, "two")
    XCTAssertEqual(row?.2, true)

    let statement = try database.prepare("SELECT :x + :y")
    try statement.bind(2, named: "x")
    try statement.bind(3, named: ":y")
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.int64(0), 5)

    let missing = assertSQLiteError(try database.run("INSERT INTO p VALUES (:a, :b, :c)", ["a": 1]))
    XCTAssertEqual(missing?.code, SQLITE_RANGE)
    XCTAssertEqual(missing?.message, "no value for parameter :b")
    let extra = assertSQLiteError(
      try database.run("INSERT INTO p VALUES (:a, 0, 0)", ["a": 1, "zzz": 2]))
    XCTAssertEqual(extra?.message, "no parameter for zzz")
    XCTAssertEqual(try database.query("SELECT count(*) FROM p") { try $0.int(0) }, [1])
  }

  func testWrongBindsAndReadsThrowInsteadOfCrashing() throws {
    let database = try open()
    try database.execute("CREATE TABLE t (x INTEGER, y TEXT)")
    let sql = "INSERT INTO t VALUES (?, ?)"
    let count = assertSQLiteError(try database.run(sql, [1]))
    XCTAssertEqual(count?.code, SQLITE_RANGE)
    XCTAssertEqual(count?.sql, sql)
    XCTAssertEqual(count?.message, "1 values given for 2 parameters")
    let statement = try database.prepare(sql)
    XCTAssertEqual(assertSQLiteError(try statement.bind(1, at: 3))?.code, SQLITE_RANGE)
    XCTAssertEqual(assertSQLiteError(try statement.bind(1, named: "nope"))?.code, SQLITE_RANGE)

    try database.run(sql, [1, nil])
    let select = "SELECT x, y FROM t"
    let read = try database.prepare(select)
    XCTAssertEqual(
      assertSQLiteError(try read.int64(0))?.message, "no current row: step() did not return true")
    XCTAssertTrue(try read.step())
    let mismatch = assertSQLiteError(try read.text(0))
    XCTAssertEqual(mismatch?.code, SQLITE_MISMATCH)
    XCTAssertEqual(mismatch?.message, "column 0 (x) holds INTEGER, not TEXT")
    XCTAssertEqual(mismatch?.sql, select)
    XCTAssertEqual(
      assertSQLiteError(try read.int64(1))?.message, "column 1 (y) holds NULL, not INTEGER")
    XCTAssertEqual(assertSQLiteError(try read.int64(2))?.code, SQLITE_RANGE)
    XCTAssertEqual(assertSQLiteError(try read.int64("z"))?.message, "no column named z")
    XCTAssertEqual(try read.value(1), .null)
    XCTAssertEqual(try read.columnName(at: 1), "y")
    XCTAssertEqual(try read.nullableInt64(0), 1)
    XCTAssertNil(try read.nullableInt64(1))
    XCTAssertNil(try read.withNullableText(1) { _ in XCTFail("called for NULL") })
    XCTAssertEqual(
      assertSQLiteError(try read.withNullableText(0) { _ in })?.message,
      "column 0 (x) holds INTEGER, not TEXT")
    XCTAssertEqual(assertSQLiteError(try read.nullableInt64(2))?.code, SQLITE_RANGE)
    XCTAssertFalse(try read.step())
    XCTAssertEqual(
      assertSQLiteError(try read.nullableInt64(0))?.message,
      "no current row: step() did not return true")
  }

  /// A row's columns read at once check what the statement's own reads
  /// check, with the same errors.
  func testColumnsReadAtOnceCheckAsSingleReads() throws {
    let database = try open()
    try database.execute("CREATE TABLE t (x INTEGER, y TEXT, z TEXT)")
    try database.run("INSERT INTO t VALUES (?, ?, ?)", [-7, nil, "치즈"])
    let select = "SELECT x, y, z FROM t"
    let read = try database.prepare(select)
    XCTAssertEqual(
      assertSQLiteError(try read.withColumns { _ in })?.message,
      "no current row: step() did not return true")
    XCTAssertTrue(try read.step())
    try read.withColumns { row in
      XCTAssertEqual(try row.int64(0), -7)
      XCTAssertEqual(try row.nullableInt64(0), -7)
      XCTAssertNil(try row.nullableTextBytes(1))
      XCTAssertEqual(try row.text(2), "치즈")
      XCTAssertEqual(Array(try row.textBytes(2)), Array("치즈".utf8))
      XCTAssertEqual(try row.nullableTextBytes(2).map(Array.init), Array("치즈".utf8))
      let mismatch = assertSQLiteError(try row.textBytes(0))
      XCTAssertEqual(mismatch?.code, SQLITE_MISMATCH)
      XCTAssertEqual(mismatch?.message, "column 0 (x) holds INTEGER, not TEXT")
      XCTAssertEqual(mismatch?.sql, select)
      XCTAssertEqual(
        assertSQLiteError(try row.int64(1))?.message, "column 1 (y) holds NULL, not INTEGER")
      XCTAssertEqual(
        assertSQLiteError(try row.nullableInt64(2))?.message,
        "column 2 (z) holds TEXT, not INTEGER")
      XCTAssertEqual(assertSQLiteError(try row.int64(3))?.code, SQLITE_RANGE)
      XCTAssertEqual(assertSQLiteError(try row.text(-1))?.code, SQLITE_RANGE)
    }
    XCTAssertFalse(try read.step())
  }

  /// The nullable readers give what `isNull` and then the value would.
  func testNullableReadersGiveTheValueOrNil() throws {
    let database = try open()
    try database.execute("CREATE TABLE t (x INTEGER, y TEXT)")
    try database.run("INSERT INTO t VALUES (?, ?), (?, ?)", [-7, "치즈", nil, nil])
    let rows = try database.query("SELECT x, y FROM t ORDER BY rowid", []) { row in
      (
        try row.nullableInt64(0),
        try row.withNullableText(1) { String(decoding: $0, as: UTF8.self) }
      )
    }
    XCTAssertEqual(rows.map(\.0), [-7, nil])
    XCTAssertEqual(rows.map(\.1), ["치즈", nil])
  }

  // MARK: Errors

  func testErrorsCarryCodeMessageAndSQL() throws {
    let database = try open()
    let syntax = assertSQLiteError(try database.run("SELEC 1"))
    XCTAssertEqual(syntax?.code, SQLITE_ERROR)
    XCTAssertEqual(syntax?.sql, "SELEC 1")
    XCTAssertEqual(syntax?.message, #"near "SELEC": syntax error"#)
    XCTAssertEqual(
      syntax?.description,
      #"SQLite error 1 (SQL logic error): near "SELEC": syntax error [SQL: SELEC 1]"#)

    try database.execute("CREATE TABLE u (name TEXT UNIQUE NOT NULL)")
    let insert = "INSERT INTO u (name) VALUES (?)"
    try database.run(insert, ["우유"])
    let unique = assertSQLiteError(try database.run(insert, ["우유"]))
    XCTAssertEqual(unique?.code, SQLITE_CONSTRAINT)
    XCTAssertEqual(unique?.extendedCode, SQLITE_CONSTRAINT | 8 << 8)  // _UNIQUE
    XCTAssertEqual(unique?.isConstraint, true)
    XCTAssertEqual(unique?.isBusy, false)
    XCTAssertEqual(unique?.message, "UNIQUE constraint failed: u.name")
    XCTAssertEqual(unique?.sql, insert)
    // The bound values never appear in the error.
    XCTAssertEqual(unique.map { "\($0)".contains("우유") }, false)
    let notNull = assertSQLiteError(try database.run(insert, [nil]))
    XCTAssertEqual(notNull?.extendedCode, SQLITE_CONSTRAINT | 5 << 8)  // _NOTNULL

    let twoStatements = assertSQLiteError(try database.run("SELECT 1; SELECT 2"))
    XCTAssertEqual(twoStatements?.code, SQLITE_MISUSE)
    // A trailing comment or semicolon is not a second statement.
    XCTAssertEqual(try database.queryOne("SELECT 1; -- one\n") { try $0.int(0) }, 1)
    XCTAssertEqual(assertSQLiteError(try database.run("  "))?.code, SQLITE_MISUSE)
  }

  // MARK: Statement cache

  func testStatementCacheReusesStatementsByText() throws {
    let database = try open()
    try database.execute("CREATE TABLE c (x)")
    let sql = "INSERT INTO c VALUES (?)"
    let first = try database.withStatement(sql) { ObjectIdentifier($0) }
    for value in 0..<100 {
      try database.run(sql, [SQLiteValue(value)])
    }
    let again = try database.withStatement(sql) { ObjectIdentifier($0) }
    XCTAssertEqual(first, again)
    XCTAssertEqual(database.cachedStatementCount, 1)

    // Two statements run in turn (a page and its count) stay the same two,
    // whichever of the last two a call asks for.
    let count = "SELECT count(*) FROM c"
    let counter = try database.withStatement(count) { ObjectIdentifier($0) }
    for _ in 0..<3 {
      XCTAssertEqual(try database.withStatement(sql) { ObjectIdentifier($0) }, first)
      XCTAssertEqual(try database.withStatement(count) { ObjectIdentifier($0) }, counter)
      XCTAssertEqual(try database.withStatement(count) { ObjectIdentifier($0) }, counter)
    }
    XCTAssertEqual(try database.queryOne(count) { try $0.int(0) }, 100)
    XCTAssertEqual(database.cachedStatementCount, 2)

    // A statement in use is not handed out twice: the row closure runs the same
    // query with a fresh statement.
    let nested = try database.query("SELECT x FROM c WHERE x < ? ORDER BY x", [3]) { row in
      try database.query("SELECT x FROM c WHERE x < ? ORDER BY x", [row.value(0)]) {
        try $0.int(0)
      }
    }
    XCTAssertEqual(nested, [[], [0], [0, 1]])
    XCTAssertEqual(database.cachedStatementCount, 3)

    // A statement stopped early is reset: it holds no read snapshot afterwards,
    // so another connection can checkpoint the whole WAL (busy flag 0).
    let other = try open(options: .init(busyTimeoutMilliseconds: 10))
    func checkpointIsBlocked() throws -> Bool {
      try other.run("INSERT INTO c VALUES (1000)")
      return try other.queryOne("PRAGMA wal_checkpoint(TRUNCATE)") { try $0.bool(0) } ?? true
    }
    let unreset = try database.prepare("SELECT x FROM c")
    XCTAssertTrue(try unreset.step())
    XCTAssertTrue(
      try checkpointIsBlocked(), "the control: a statement left on a row holds its snapshot")
    unreset.reset()
    _ = try database.queryOne("SELECT x FROM c") { try $0.int(0) }
    XCTAssertFalse(try checkpointIsBlocked())

    // A schema change re-prepares a cached statement; names find the new columns.
    try database.execute("CREATE TABLE r (a, b); INSERT INTO r VALUES ('a', 'b')")
    let selectAll = "SELECT * FROM r"
    XCTAssertEqual(try database.queryOne(selectAll) { try $0.text("b") }, "b")
    try database.execute("DROP TABLE r; CREATE TABLE r (b, a); INSERT INTO r VALUES ('B', 'A')")
    XCTAssertEqual(try database.queryOne(selectAll) { try ($0.text("b"), $0.text("A")) }?.0, "B")
    XCTAssertEqual(try database.queryOne(selectAll) { try $0.text("A") }, "A")

    // Past its capacity, the cache drops a statement.
    let small = try open(options: .init(statementCacheCapacity: 2))
    for value in 0..<5 {
      _ = try small.queryOne("SELECT \(value)") { try $0.int(0) }
    }
    XCTAssertEqual(small.cachedStatementCount, 2)
  }

  // MARK: Transactions

  func testTransactionCommitsOrRollsBackAndNestsAsSavepoints() throws {
    let database = try open()
    try database.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    try database.transaction(.immediate) {
      try database.run("INSERT INTO t VALUES (1)")
    }
    XCTAssertThrowsError(
      try database.transaction {
        try database.run("INSERT INTO t VALUES (2)")
        throw SQLiteTestFailure(id: 2)
      }
    ) { XCTAssertEqual($0 as? SQLiteTestFailure, SQLiteTestFailure(id: 2)) }
    XCTAssertFalse(database.isInTransaction)

    try database.transaction {
      try database.run("INSERT INTO t VALUES (3)")
      XCTAssertThrowsError(
        try database.transaction {
          try database.run("INSERT INTO t VALUES (4)")
          try database.run("INSERT INTO t VALUES (3)")  // UNIQUE
        }
      ) { XCTAssertEqual(($0 as? SQLiteError)?.isConstraint, true) }
      XCTAssertTrue(database.isInTransaction)
      try database.savepoint {
        try database.run("INSERT INTO t VALUES (5)")
      }
    }
    XCTAssertEqual(try database.query("SELECT x FROM t ORDER BY x") { try $0.int(0) }, [1, 3, 5])

    // A failing COMMIT (a deferred foreign key) rolls back too.
    try database.execute(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
      """)
    let commit = assertSQLiteError(
      try database.transaction { try database.run("INSERT INTO child VALUES (9)") })
    XCTAssertEqual(commit?.isConstraint, true)
    XCTAssertEqual(commit?.sql, "COMMIT")
    XCTAssertFalse(database.isInTransaction)
    XCTAssertEqual(try database.queryOne("SELECT count(*) FROM child") { try $0.int(0) }, 0)
  }

  // MARK: Migrations

  private let migrations = [
    SQLiteMigration(
      version: 1,
      sql: """
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE INDEX items_name ON items (name);
        """),
    SQLiteMigration(version: 2) { database in
      try database.run("INSERT INTO items (name) VALUES (?)", ["seed"])
    },
  ]

  func testMigrationsApplyOnceAcrossReopens() throws {
    do {
      let database = try open()
      XCTAssertEqual(try database.userVersion(), 0)
      XCTAssertEqual(try database.migrate(migrations), 2)
      XCTAssertEqual(try database.migrate(migrations), 2)
    }
    do {
      let database = try open()
      XCTAssertEqual(try database.migrate(migrations), 2)
      XCTAssertEqual(try database.queryOne("SELECT count(*) FROM items") { try $0.int(0) }, 1)
      // A later build adds a step: only that one runs.
      let more = migrations + [SQLiteMigration(version: 3, sql: "ALTER TABLE items ADD note TEXT")]
      XCTAssertEqual(try database.migrate(more), 3)
      XCTAssertEqual(try database.queryOne("SELECT count(*) FROM items") { try $0.int(0) }, 1)
    }
    do {
      // An older build refuses a newer file instead of writing to it.
      let database = try open()
      let newer = assertSQLiteError(try database.migrate(migrations))
      XCTAssertEqual(newer?.message.contains("schema version 3, newer than this build's 2"), true)
    }
  }

  func testAFailingMigrationLeavesNoTrace() throws {
    let database = try open()
    let broken = [
      migrations[0],
      SQLiteMigration(version: 2, sql: "CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);"),
    ]
    let error = assertSQLiteError(try database.migrate(broken))
    XCTAssertEqual(error?.message, "no such table: nowhere")
    XCTAssertEqual(try database.userVersion(), 1)
    XCTAssertEqual(
      try database.queryOne("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") {
        try $0.int(0)
      }, 0)
    XCTAssertEqual(
      assertSQLiteError(try database.migrate([migrations[1], migrations[0]]))?.code, SQLITE_MISUSE)
  }

  // MARK: Opening, WAL, other connections

  func testOpensInWALWithDurableSettings() throws {
    let database = try open()
    XCTAssertEqual(try database.journalMode(), "wal")
    XCTAssertEqual(try database.queryOne("PRAGMA synchronous") { try $0.int(0) }, 2)  // FULL
    XCTAssertEqual(try database.queryOne("PRAGMA foreign_keys") { try $0.int(0) }, 1)
    XCTAssertEqual(try database.queryOne("PRAGMA busy_timeout") { try $0.int(0) }, 5000)
    XCTAssertEqual(try database.integrityCheck(), "ok")

    let normal = try open(options: .init(synchronous: .normal, busyTimeoutMilliseconds: 20))
    XCTAssertEqual(try normal.queryOne("PRAGMA synchronous") { try $0.int(0) }, 1)
    XCTAssertEqual(try normal.queryOne("PRAGMA busy_timeout") { try $0.int(0) }, 20)

    try database.execute(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent INTEGER REFERENCES parent(id));
      """)
    XCTAssertEqual(
      assertSQLiteError(try database.run("INSERT INTO child VALUES (1)"))?.extendedCode,
      SQLITE_CONSTRAINT | 3 << 8)  // _FOREIGNKEY

    let readOnly = try SQLiteDatabase(path: directory.file(), readOnly: true)
    XCTAssertTrue(readOnly.isReadOnly)
    XCTAssertEqual(try readOnly.queryOne("SELECT count(*) FROM parent") { try $0.int(0) }, 0)
    XCTAssertEqual(
      assertSQLiteError(try readOnly.run("INSERT INTO parent VALUES (1)"))?.code, SQLITE_READONLY)

    let missing = directory.file("missing/nothing.sqlite")
    let cannotOpen = assertSQLiteError(try SQLiteDatabase(path: missing))
    XCTAssertEqual(cannotOpen?.code, SQLITE_CANTOPEN)
    XCTAssertEqual(cannotOpen?.message.hasSuffix(missing), true)
  }

  func testExecuteRunsScriptsAndStopsAtTheFirstError() throws {
    let database = try open()
    try database.execute(
      """
      -- a comment
      CREATE TABLE s (x);
      INSERT INTO s VALUES (1);   /* another */
      SELECT * FROM s;
      INSERT INTO s VALUES (2);

      """)
    XCTAssertEqual(try database.query("SELECT x FROM s") { try $0.int(0) }, [1, 2])
    let error = assertSQLiteError(
      try database.execute(
        "INSERT INTO s VALUES (3); INSERT INTO nope VALUES (4); INSERT INTO s VALUES (5)"))
    XCTAssertEqual(error?.message, "no such table: nope")
    XCTAssertEqual(error?.sql?.hasPrefix("INSERT INTO nope VALUES (4);"), true)
    XCTAssertEqual(try database.query("SELECT x FROM s") { try $0.int(0) }, [1, 2, 3])
  }

  func testTwoConnectionsSeeEachOthersCommitsThroughDataVersion() throws {
    let first = try open()
    let second = try open()
    try first.execute("CREATE TABLE d (x)")
    let before = try first.dataVersion()
    try first.run("INSERT INTO d VALUES (1)")
    XCTAssertEqual(try first.dataVersion(), before, "its own commits do not count")
    let secondBefore = try second.dataVersion()
    try first.run("INSERT INTO d VALUES (2)")
    XCTAssertNotEqual(try second.dataVersion(), secondBefore)
    XCTAssertEqual(try second.queryOne("SELECT count(*) FROM d") { try $0.int(0) }, 2)
    try second.run("INSERT INTO d VALUES (3)")
    XCTAssertNotEqual(try first.dataVersion(), before)
    XCTAssertEqual(first.lastInsertRowID, 2)
    XCTAssertEqual(second.lastInsertRowID, 3)
    XCTAssertEqual(try second.run("DELETE FROM d WHERE x >= 2"), 2)
    XCTAssertEqual(second.changes, 2)
  }

  func testFTS5TrigramFindsKoreanSubstrings() throws {
    let database = try open()
    try database.execute("CREATE VIRTUAL TABLE names USING fts5(name, tokenize = 'trigram')")
    for name in ["신선한 우유 1L", "유기농 두부 300g", "우유식빵", "Fresh milk"] {
      try database.run("INSERT INTO names (name) VALUES (?)", [.text(name)])
    }
    func match(_ query: String) throws -> [String] {
      try database.query(
        "SELECT name FROM names WHERE names MATCH ? ORDER BY rowid", [.text(query)]
      ) {
        try $0.text(0)
      }
    }
    XCTAssertEqual(try match(#""한 우유""#), ["신선한 우유 1L"])
    XCTAssertEqual(try match(#""우유식""#), ["우유식빵"])
    XCTAssertEqual(try match(#""milk""#), ["Fresh milk"])
    XCTAssertEqual(try match(#""MILK""#), ["Fresh milk"], "trigram folds case by default")
    // LIKE on a trigram table uses the index too, for three characters or more.
    func like(_ pattern: String, table: String = "names") throws -> [String] {
      try database.query(
        "SELECT name FROM \(table) WHERE name LIKE ? ORDER BY rowid", [.text(pattern)]
      ) { try $0.text(0) }
    }
    XCTAssertEqual(try like("%한 우유%"), ["신선한 우유 1L"])
    XCTAssertEqual(try like("%MIL%"), ["Fresh milk"])
    // Shorter text needs a plain table: SQLite 3.40.1 finds nothing for a
    // two-syllable Hangul LIKE on the FTS table (it counts bytes, not
    // characters, before choosing the index), although `%mi%` works.
    try database.execute("CREATE TABLE plain AS SELECT rowid, name FROM names")
    XCTAssertEqual(try like("%우유%", table: "plain"), ["신선한 우유 1L", "우유식빵"])
  }

  func testClosedDatabaseThrowsMisuse() throws {
    let database = try open()
    let statement = try database.prepare("SELECT 41 + 1")
    database.close()
    database.close()
    XCTAssertTrue(database.isClosed)
    XCTAssertEqual(assertSQLiteError(try database.run("SELECT 1"))?.code, SQLITE_MISUSE)
    XCTAssertEqual(database.lastInsertRowID, 0)
    // A statement the caller held keeps the connection alive until released.
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.int(0), 42)
  }
}
