import Glibc

/// Why a file's header gave no dimensions: the photo index skips the file and
/// logs this, and keeps it as the file's skip reason.
public enum ImageHeaderError: Error, Sendable, Hashable {
  /// The file does not start like a JPEG, PNG, GIF or WebP file.
  case notAnImage
  /// The file ends before the header does.
  case truncated
  /// The header breaks its format's rules (a bad checksum, a zero width, …).
  case malformed(String)
  /// The dimensions are not within the first reads the reader allows itself
  /// (see `ImageBytes.maxReads`).
  case readLimit
  /// The file could not be opened or read (`errno`).
  case unreadable(errno: Int32)
}

extension ImageHeaderError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notAnImage: "not a JPEG, PNG, GIF or WebP file"
    case .truncated: "truncated header"
    case .malformed(let reason): "malformed header: \(reason)"
    case .readLimit: "no dimensions within the bytes read"
    case .unreadable(let code): "unreadable: \(String(cString: strerror(code)))"
    }
  }
}
