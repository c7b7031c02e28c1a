import Glibc

/// The bytes of one image file (or of an array), as the header readers see
/// them: random access through a small window, within a budget of reads.
///
/// A reader asks for a few bytes at an offset; the window is refilled, from
/// that offset, only when they are not in it. At most `maxReads` fills of
/// `windowSize` bytes happen, so a header reader touches at most 64 KiB of a
/// file however it is built, and seeking past a large segment (a JPEG's EXIF
/// thumbnail) costs one read. Reading past the end throws `.truncated`; past
/// the budget, `.readLimit`. Arrays go through the same window, so tests of
/// arrays exercise the file path too.
///
/// Not `Sendable`: one reader uses it, on one thread.
final class ImageBytes {
  /// Where the bytes come from.
  private enum Storage {
    case memory([UInt8])
    case file(Int32)
  }

  /// Bytes per window fill.
  static let windowSize = 4_096
  /// Window fills allowed per image.
  static let maxReads = 16

  /// The source.
  private let storage: Storage
  /// The source's length in bytes.
  let count: Int
  /// The bytes at `windowStart ..< windowStart + window.count`.
  private var window: [UInt8] = []
  /// Where the window starts in the source.
  private var windowStart = 0
  /// Window fills left.
  private var readsLeft = ImageBytes.maxReads

  /// The bytes of an array.
  init(_ bytes: [UInt8]) {
    storage = .memory(bytes)
    count = bytes.count
  }

  /// The bytes of an open file of `count` bytes; the caller closes `descriptor`.
  init(descriptor: Int32, count: Int) {
    storage = .file(descriptor)
    self.count = count
  }

  /// How many window fills happened (for tests).
  var readsUsed: Int { Self.maxReads - readsLeft }

  /// Makes `offset ..< offset + length` (`length` ≤ `windowSize`) available in
  /// the window and returns where it starts there.
  private func locate(_ offset: Int, _ length: Int) throws(ImageHeaderError) -> Int {
    guard offset >= 0, length >= 0, length <= Self.windowSize else {
      throw .malformed("a field lies outside the file")
    }
    guard offset <= count - length else { throw .truncated }
    if offset >= windowStart, offset + length <= windowStart + window.count {
      return offset - windowStart
    }
    guard readsLeft > 0 else { throw .readLimit }
    readsLeft -= 1
    let wanted = min(Self.windowSize, count - offset)
    switch storage {
    case .memory(let bytes):
      window = Array(bytes[offset..<offset + wanted])
    case .file(let descriptor):
      window = try Self.pread(descriptor, at: offset, count: wanted)
    }
    windowStart = offset
    guard window.count >= length else { throw .truncated }  // the file shrank
    return 0
  }

  private static func pread(_ descriptor: Int32, at offset: Int, count: Int)
    throws(ImageHeaderError) -> [UInt8]
  {
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var done = 0
      while done < count {
        let result = Glibc.pread(
          descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        if result == 0 { break }
        done += result
      }
      initialized = done
    }
    guard failure == 0 else { throw .unreadable(errno: failure) }
    return bytes
  }

  func u8(at offset: Int) throws(ImageHeaderError) -> UInt8 {
    window[try locate(offset, 1)]
  }

  func u16be(at offset: Int) throws(ImageHeaderError) -> Int {
    let start = try locate(offset, 2)
    return Int(window[start]) << 8 | Int(window[start + 1])
  }

  func u16le(at offset: Int) throws(ImageHeaderError) -> Int {
    let start = try locate(offset, 2)
    return Int(window[start]) | Int(window[start + 1]) << 8
  }

  func u24le(at offset: Int) throws(ImageHeaderError) -> Int {
    let start = try locate(offset, 3)
    return Int(window[start]) | Int(window[start + 1]) << 8 | Int(window[start + 2]) << 16
  }

  func u32be(at offset: Int) throws(ImageHeaderError) -> Int {
    let start = try locate(offset, 4)
    return Int(window[start]) << 24 | Int(window[start + 1]) << 16 | Int(window[start + 2]) << 8
      | Int(window[start + 3])
  }

  func u32le(at offset: Int) throws(ImageHeaderError) -> Int {
    let start = try locate(offset, 4)
    return Int(window[start]) | Int(window[start + 1]) << 8 | Int(window[start + 2]) << 16
      | Int(window[start + 3]) << 24
  }

  func u16(at offset: Int, littleEndian: Bool) throws(ImageHeaderError) -> Int {
    littleEndian ? try u16le(at: offset) : try u16be(at: offset)
  }

  func u32(at offset: Int, littleEndian: Bool) throws(ImageHeaderError) -> Int {
    littleEndian ? try u32le(at: offset) : try u32be(at: offset)
  }

  /// `length` bytes (at most `windowSize`) from `offset`.
  func bytes(at offset: Int, count length: Int) throws(ImageHeaderError) -> ArraySlice<UInt8> {
    let start = try locate(offset, length)
    return window[start..<start + length]
  }

  /// Whether the bytes at `offset` are `expected` (false when the file is shorter).
  func matches(_ expected: [UInt8], at offset: Int) throws(ImageHeaderError) -> Bool {
    guard offset <= count - expected.count else { return false }
    return try bytes(at: offset, count: expected.count).elementsEqual(expected)
  }
}
