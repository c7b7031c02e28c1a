import Glibc

/// What an image file's header says: its format, its stored width and height,
/// and the author its metadata names. No pixel is decoded.
///
/// Dimensions are the stored ones: a JPEG whose EXIF orientation asks for a
/// quarter turn keeps its stored width and height (the picture a viewer shows
/// is then `height` wide).
public struct ImageHeader: Sendable, Hashable {
  public let format: ImageFormat
  public let width: Int
  public let height: Int
  /// The creator the file names, when it names one: the EXIF Artist tag of a
  /// JPEG or WebP file, the PNG text "Author" or "Artist", a GIF's XMP
  /// `dc:creator`.
  public let author: String?

  public init(format: ImageFormat, width: Int, height: Int, author: String? = nil) {
    self.format = format
    self.width = width
    self.height = height
    self.author = author
  }

  /// The header of an image held in memory.
  public static func read(bytes: [UInt8], readingAuthor: Bool = true) throws(ImageHeaderError)
    -> ImageHeader
  {
    try read(ImageBytes(bytes), readingAuthor: readingAuthor)
  }

  /// The header of the file at `path`, reading at most 64 KiB of it.
  public static func read(path: String, readingAuthor: Bool = true) throws(ImageHeaderError)
    -> ImageHeader
  {
    // O_NONBLOCK: a FIFO put in place of the file must not block the scan.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .unreadable(errno: errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(errno: errno) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notAnImage }
    return try read(
      ImageBytes(descriptor: descriptor, count: Int(status.st_size)), readingAuthor: readingAuthor)
  }

  static func read(_ bytes: ImageBytes, readingAuthor: Bool) throws(ImageHeaderError)
    -> ImageHeader
  {
    let prefix = try bytes.bytes(at: 0, count: min(bytes.count, 12))
    guard let format = ImageFormat.sniff(prefix) else {
      throw ImageFormat.couldStart(prefix) ? .truncated : .notAnImage
    }
    let header: ImageHeader
    switch format {
    case .jpeg: header = try JPEGHeader.read(bytes, readingAuthor: readingAuthor)
    case .png: header = try PNGHeader.read(bytes, readingAuthor: readingAuthor)
    case .gif: header = try GIFHeader.read(bytes, readingAuthor: readingAuthor)
    case .webp: header = try WebPHeader.read(bytes, readingAuthor: readingAuthor)
    }
    guard header.width > 0, header.height > 0 else { throw .malformed("zero width or height") }
    return header
  }
}
