/// A catalog that can be filled with generated products in bulk
/// (`catalogd seed products N`), for benchmarks and load tests.
public protocol ProductSeeding: Sendable {
  /// Adds `count` products of `DemoCatalog.bulkItems` in large transactions,
  /// calling `progress` with the number added after each.
  func seed(count: Int, progress: @Sendable (Int) -> Void) async throws
}

extension SQLiteProductBackend: ProductSeeding {}
