/// One change of a photos folder, as a live feed applies it.
public enum PhotoFolderChange: Sendable, Hashable {
  /// The photo at `relativePath` was added or changed (its wire value is
  /// `photo`, as `photos/list` gives it).
  case upserted(photo: Photo, relativePath: String)
  /// The photo `id` that was at `relativePath` is gone.
  case removed(id: String, relativePath: String)
}
