/// The products catalog as an `ImageURLAuthority`: whether a product's
/// `imageUrl` is `url`. The catalog decides through `lookup` (a query of
/// products by image URL), which the daemon sets where it builds the
/// services (`ServiceHub`); `none` vouches for nothing.
public struct ProductImageURLs: ImageURLAuthority {
  private let lookup: @Sendable (ImageURL) async throws -> Bool

  /// - Parameter lookup: whether some product of the catalog has `imageUrl`
  ///   equal to the URL's text (or handed it out otherwise).
  public init(lookup: @escaping @Sendable (ImageURL) async throws -> Bool) {
    self.lookup = lookup
  }

  /// Vouches for no URL (a catalog without images).
  public static let none = ProductImageURLs { _ in false }

  public func handedOut(_ url: ImageURL) async throws -> Bool {
    try await lookup(url)
  }
}
