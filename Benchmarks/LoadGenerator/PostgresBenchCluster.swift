import Glibc
import Services

/// A PostgreSQL cluster of the bench's own, holding a catalog of `count` products, for the
/// products figures on the shared catalog (`--postgres`).
///
/// The cluster lives in `.build/bench-data/postgres-N-vV` (V `DemoCatalog.bulkVersion`): `initdb`
/// and `catalogd seed products N` run once (a million rows take minutes), later runs start the
/// same cluster. Unlike the test clusters it keeps `fsync` on, so a create is as durable as it
/// would be in production. Each run first deletes what earlier runs created (ids above the
/// seeded ones) and vacuums, so the figures of one run do not depend on the last. `stop()` must
/// be called: the server runs in the background.
final class PostgresBenchCluster {
  static let user = "catalogd"

  let base: String
  let port: Int
  /// The largest id of the seeded catalog; later ids are a run's creates.
  private(set) var seededMaxID = 0
  private let bin: String
  /// `runuser -u postgres --` as root: PostgreSQL refuses to run as root.
  private let runner: [String]
  private var running = false

  var url: String { "postgres://\(Self.user)@127.0.0.1:\(port)/postgres" }
  private var data: String { base + "/data" }
  private var marker: String { base + "/seeded-max-id" }

  init(products count: Int, binary: String) throws {
    var directory = [CChar](repeating: 0, count: Int(PATH_MAX))
    guard getcwd(&directory, directory.count) != nil else {
      throw BenchError.system(call: "getcwd", errno: errno)
    }
    let cwd = String(
      decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    base = cwd + "/.build/bench-data/postgres-\(count)-v\(DemoCatalog.bulkVersion)"
    bin = try Self.binaries()
    runner = getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []
    port = try freePort()

    let seededMax = access(marker, R_OK) == 0 ? Int(try readText(marker)) : nil
    if seededMax == nil {
      // No marker: never made, or seeding was interrupted. Start again from nothing.
      removeTree(base)
      try spawnAndWait("/bin/mkdir", ["-p", base])
      if !runner.isEmpty { try spawnAndWait("/bin/chown", ["postgres:postgres", base]) }
      try server(
        "initdb",
        ["-D", data, "-U", Self.user, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
    }
    try start()
    if let seededMax {
      seededMaxID = seededMax
      // What earlier runs created goes, so every run measures the seeded catalog.
      _ = try psql("DELETE FROM products WHERE id > \(seededMax)")
      _ = try psql("VACUUM ANALYZE products")
    } else {
      printError("seeding \(count) products into PostgreSQL at \(base) (once)…")
      let work = try TempDirectory()
      try spawnAndWait(
        binary,
        ["seed", "products", String(count), "--database-url", url, "--data-dir", work.path],
        outputToStandardError: true)
      // Statistics and the visibility map, as a database that has been in use would have them.
      _ = try psql("VACUUM ANALYZE")
      let maximum = try psql("SELECT max(id) FROM products")
      seededMaxID = Int(maximum) ?? 0
      try writeText(marker, maximum)
    }
  }

  /// `pg_ctl start` on 127.0.0.1 and the free port, waiting until it accepts connections.
  private func start() throws {
    // shared_buffers holds the million-row table and its indexes, as a server sized for its
    // catalog would; 8 daemons and psql need few connections.
    let settings =
      "-h 127.0.0.1 -p \(port) -k \(base) -c shared_buffers=512MB -c max_connections=50"
    try server(
      "pg_ctl",
      ["-D", data, "-l", base + "/server.log", "-o", settings, "-w", "-t", "120", "start"])
    running = true
  }

  /// `pg_ctl stop -m fast`: the next run starts from a clean shutdown.
  func stop() {
    guard running else { return }
    running = false
    do {
      try server("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "120", "stop"])
    } catch {
      printError("catalogd-bench: stopping PostgreSQL at \(base) failed: \(error)")
    }
  }

  deinit { stop() }

  /// Runs one of the server's programs as the server's user; its output goes to stderr, so
  /// that with `--json` stdout stays the JSON object alone.
  private func server(_ program: String, _ arguments: [String]) throws {
    let argv = runner + [bin + "/" + program] + arguments
    try spawnAndWait(argv[0], Array(argv.dropFirst()), outputToStandardError: true)
  }

  /// Runs one SQL statement with psql; its rows as text, one a line, columns split by tabs.
  func psql(_ sql: String) throws -> String {
    try captureOutput(
      bin + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
  }

  /// Where `initdb`, `pg_ctl` and `psql` are: Debian keeps them under
  /// /usr/lib/postgresql/<version>/bin (the newest wins).
  private static func binaries() throws -> String {
    guard let directory = opendir("/usr/lib/postgresql") else {
      throw BenchError.harness(
        "no /usr/lib/postgresql: the PostgreSQL figures need the server (apt-get install postgresql)"
      )
    }
    defer { closedir(directory) }
    var newest = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let version = Int(name),
        access("/usr/lib/postgresql/\(version)/bin/pg_ctl", X_OK) == 0
      {
        newest = max(newest, version)
      }
    }
    guard newest > 0 else { throw BenchError.harness("no pg_ctl under /usr/lib/postgresql") }
    return "/usr/lib/postgresql/\(newest)/bin"
  }
}

/// A TCP port on 127.0.0.1 that nothing listens on now.
private func freePort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw BenchError.system(call: "socket", errno: errno) }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
      guard bind(fd, generic, length) == 0 else { return false }
      return getsockname(fd, generic, &length) == 0
    }
  }
  guard bound else { throw BenchError.system(call: "bind", errno: errno) }
  return Int(UInt16(bigEndian: address.sin_port))
}

private func readText(_ path: String) throws -> String {
  try captureOutput("/bin/cat", [path])
}

private func writeText(_ path: String, _ text: String) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw BenchError.system(call: "open \(path)", errno: errno) }
  defer { close(fd) }
  try Array(text.utf8).withUnsafeBytes { try writeAll(fd, $0) }
}
