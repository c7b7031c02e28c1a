/// The image formats the photos service lists.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  case jpeg
  case png
  case gif
  case webp

  /// The media type `photos/image` reports.
  public var contentType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .gif: "image/gif"
    case .webp: "image/webp"
    }
  }

  /// The usual file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    case .png: "png"
    case .gif: "gif"
    case .webp: "webp"
    }
  }

  /// The signatures: bytes a file of the format starts with (nil: any byte).
  private static let signatures: [(ImageFormat, [UInt8?])] = [
    (.jpeg, [0xFF, 0xD8, 0xFF]),
    (.png, PNGHeader.signature),
    (.gif, Array("GIF87a".utf8)),
    (.gif, Array("GIF89a".utf8)),
    (.webp, Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8)),
  ]

  /// The format whose whole signature starts `prefix`.
  static func sniff(_ prefix: ArraySlice<UInt8>) -> ImageFormat? {
    signatures.first { _, signature in
      prefix.count >= signature.count
        && zip(prefix, signature).allSatisfy { byte, expected in expected.map { $0 == byte } ?? true
        }
    }?.0
  }

  /// Whether `prefix` (shorter than a signature) could be the start of one:
  /// a file that short is a truncated image rather than another kind of file.
  static func couldStart(_ prefix: ArraySlice<UInt8>) -> Bool {
    !prefix.isEmpty
      && signatures.contains { _, signature in
        prefix.count < signature.count
          && zip(prefix, signature).allSatisfy { byte, expected in
            expected.map { $0 == byte } ?? true
          }
      }
  }
}
