/// What one scan of the folder did, for logs and benchmarks.
public struct PhotoScanReport: Sendable, Hashable {
  /// Regular files found (images and others).
  public var files = 0
  /// Files whose header was read (new or changed since the cache).
  public var read = 0
  /// Files skipped: not images, broken, unreadable.
  public var skipped = 0
  /// Records dropped because their file is gone.
  public var removed = 0
  /// Seconds the scan took, cache load and save included.
  public var seconds = 0.0
}
