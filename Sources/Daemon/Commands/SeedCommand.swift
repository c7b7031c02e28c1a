import Services

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd seed products COUNT`: adds COUNT generated products to the
/// catalog (the data dir's, or the PostgreSQL database of `--database-url`), for benchmarks and load tests, with
/// progress on stderr.
enum SeedCommand {
  static func run(_ configuration: Configuration, arguments: [String]) async -> Int32 {
    guard arguments.count == 2, arguments[0] == "products", let count = Int(arguments[1]), count > 0
    else {
      printLine("usage: catalogd seed products COUNT", to: 2)
      return 2
    }
    let backend: any ProductSeeding =
      configuration.databaseURL.map { ServiceHub.postgresBackend(configuration, url: $0) }
      ?? SQLiteProductBackend(
        path: configuration.dataDirectory + "/catalog.sqlite", origin: ServiceHub.instanceId)
    let started = monotonicSeconds()
    do {
      try await backend.seed(count: count) { done in
        printLine("\r\(done) / \(count) products", to: 2, newline: done == count)
      }
    } catch {
      printLine("catalogd: \(error)", to: 2)
      return 1
    }
    let seconds = monotonicSeconds() - started
    printLine(
      "added \(count) products in \(Int(seconds * 1000)) ms (\(Int(Double(count) / seconds)) per second)",
      to: 2)
    return 0
  }

  private static func printLine(_ text: String, to fd: Int32, newline: Bool = true) {
    Array((text + (newline ? "\n" : "")).utf8).withUnsafeBytes { _ = writeAll(fd, $0) }
  }
}
