import FoundationEssentials
import Synchronization

/// The photo index's cache on disk: `photos.sqlite` in the data dir, one row
/// per file of each folder indexed (path, size, modification time, and the
/// header's format, dimensions and author, or why the file was skipped).
///
/// It only saves work: losing it costs one full read of the folder. The file
/// opens on first use; commits are not synced (`synchronous=NORMAL`).
final class PhotoIndexStore: Sendable {
  /// The database file.
  let path: String
  /// The connection, made on first use (it starts a thread of its own).
  private let lazyConnection = Mutex<SQLiteConnection?>(nil)

  init(path: String) {
    self.path = path
  }

  static let migrations = [
    SQLiteMigration(
      version: 1,
      sql: """
        CREATE TABLE folders (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE
        );
        CREATE TABLE files (
          folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
          path TEXT NOT NULL,
          size INTEGER NOT NULL,
          modified_ns INTEGER NOT NULL,
          format TEXT,
          width INTEGER,
          height INTEGER,
          author TEXT,
          skip_reason TEXT,
          PRIMARY KEY (folder_id, path)
        ) WITHOUT ROWID;
        """)
  ]

  private func connection() throws -> SQLiteConnection {
    try lazyConnection.withLock { stored in
      if let stored { return stored }
      let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      if !folder.isEmpty {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      let made = try SQLiteConnection(
        path: path, options: SQLiteDatabase.Options(synchronous: .normal)
      ) { database in
        try database.migrate(Self.migrations)
      }
      stored = made
      return made
    }
  }

  /// What the cache holds for one folder: the record of each file, in
  /// `PathOrder` of their paths (SQLite's BINARY collation is `memcmp`).
  struct Contents: Sendable {
    var files: [(path: String, record: PhotoFileRecord)] = []
  }

  /// Every record of `folder` (an absolute path).
  func load(folder: String) async throws -> Contents {
    try await connection().read { database in
      var contents = Contents()
      try database.withStatement(
        """
        SELECT f.path, f.size, f.modified_ns, f.format, f.width, f.height, f.author, f.skip_reason
        FROM files f JOIN folders d ON d.id = f.folder_id WHERE d.path = ?
        ORDER BY f.path
        """
      ) { statement in
        try statement.bind([.text(folder)])
        while try statement.step() {
          let outcome: PhotoFileRecord.Outcome
          if !(try statement.isNull(3)),
            let format = ImageFormat(rawValue: try statement.text(3))
          {
            outcome = .image(
              ImageHeader(
                format: format, width: try statement.int(4), height: try statement.int(5),
                author: try statement.isNull(6) ? nil : try statement.text(6)))
          } else {
            outcome = .skipped(reason: try statement.isNull(7) ? "" : try statement.text(7))
          }
          contents.files.append(
            (
              try statement.text(0),
              PhotoFileRecord(
                size: try statement.int64(1), modified: try statement.int64(2), outcome: outcome)
            ))
        }
      }
      return contents
    }
  }

  /// Records `changed` files and forgets `removed` ones of `folder`, in one
  /// transaction.
  func save(folder: String, changed: [(String, PhotoFileRecord)], removed: [String]) async throws {
    try await connection().write { database in
      try database.run("INSERT OR IGNORE INTO folders (path) VALUES (?)", [.text(folder)])
      guard
        let folderID = try database.queryOne(
          "SELECT id FROM folders WHERE path = ?", [.text(folder)], row: { try $0.int64(0) })
      else { return }
      try database.withStatement(
        """
        INSERT OR REPLACE INTO files
          (folder_id, path, size, modified_ns, format, width, height, author, skip_reason)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
      ) { statement in
        for (path, record) in changed {
          var values: [SQLiteValue] = [
            .integer(folderID), .text(path), .integer(record.size), .integer(record.modified),
          ]
          switch record.outcome {
          case .image(let header):
            values += [
              .text(header.format.rawValue), .integer(Int64(header.width)),
              .integer(Int64(header.height)), SQLiteValue(header.author), .null,
            ]
          case .skipped(let reason):
            values += [.null, .null, .null, .null, .text(reason)]
          }
          try statement.bind(values)
          while try statement.step() {}
          statement.reset()
        }
      }
      try database.withStatement("DELETE FROM files WHERE folder_id = ? AND path = ?") {
        statement in
        for path in removed {
          try statement.bind([.integer(folderID), .text(path)])
          while try statement.step() {}
          statement.reset()
        }
      }
    }
  }
}
