/// One change of a photos folder, as a live feed applies it.
public enum PhotoFolderChange: Sendable, Hashable {
  /// The photo at `relativePath` was added or changed (its wire value is
  /// `photo`, as `photos/list` gives it).
  case upserted(photo: Photo, relativePath: String)
  /// The photo `id` that was at `relativePath` is gone.
  case removed(id: String, relativePath: String)
}

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
