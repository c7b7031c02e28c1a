/// What the photo index knows of one file of the folder: the size and
/// modification time it had when its header was read, and what the header
/// gave. A file whose size and time are unchanged is not read again.
struct PhotoFileRecord: Sendable, Hashable {
  enum Outcome: Sendable, Hashable {
    /// A JPEG, PNG, GIF or WebP image.
    case image(ImageHeader)
    /// Not an image, or a broken one: why (kept so it is not read again).
    case skipped(reason: String)
  }

  let size: Int64
  /// Modification time in nanoseconds since the epoch.
  let modified: Int64
  let outcome: Outcome

  /// Whether a file of this size and time is the one recorded.
  func matches(size: Int64, modified: Int64) -> Bool {
    self.size == size && self.modified == modified
  }
}
