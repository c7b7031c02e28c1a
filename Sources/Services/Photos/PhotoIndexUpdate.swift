/// What applying a batch of changed paths made of the index.
public struct PhotoIndexUpdate: Sendable {
  /// The index after the batch.
  public let snapshot: PhotoIndexSnapshot
  /// The photos added, changed or removed, in `PathOrder` of their paths.
  public let changes: [PhotoIndexChange]
}
