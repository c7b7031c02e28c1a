/// What a folder followed live reports (`FolderPhotoBackend.events()`).
///
/// Applying a change is idempotent (an upsert replaces or inserts, a removal
/// removes if present): a page read while a batch was applied may already
/// hold what the batch's event then reports.
public enum PhotoFolderEvent: Sendable, Hashable {
  /// One batch of changes, in `PathOrder` of their paths.
  case changed([PhotoFolderChange])
  /// Changes may have been missed (the kernel's queue overflowed, watching
  /// restarted, or the consumer fell behind): reload.
  case resync
}
