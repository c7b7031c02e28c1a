/// A service that hands out image URLs and can tell, later, whether it
/// handed out one: `images/get` fetches only URLs that some authority
/// vouches for, so the daemon is no open proxy. One per service: the photos
/// service (its folder or its picsum server) and the products catalog.
///
/// The answer must hold across restarts where it can: a service re-derives
/// it (a folder photo is served while the folder has it; a catalog looks the
/// URL up) rather than relying on a list kept in memory.
public protocol ImageURLAuthority: Sendable {
  /// Whether this service handed out `url` (or would hand it out now).
  /// - Throws: `CancellationError`; other errors count as "no" to the caller
  ///   only when another authority vouches (see `ImagesService`).
  func handedOut(_ url: ImageURL) async throws -> Bool
}
