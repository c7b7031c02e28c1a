/// The Artist tag (0x013B) of the first IFD of an EXIF TIFF structure, as
/// JPEG APP1 "Exif" segments and WebP `EXIF` chunks hold it.
enum EXIFArtist {
  static let artistTag = 0x013B
  /// IFD entries looked at before giving up.
  static let maxEntries = 512
  /// The longest Artist value read.
  static let maxValueBytes = 1_024

  /// The artist named by the TIFF structure at `tiffStart` (`tiffLength`
  /// bytes long; offsets inside it are relative to its start), or nil when
  /// there is none or the structure is broken.
  static func read(_ bytes: ImageBytes, tiffStart: Int, tiffLength: Int) -> String? {
    do {
      let order = try bytes.bytes(at: tiffStart, count: 2)
      let littleEndian: Bool
      if order.elementsEqual([0x49, 0x49]) {
        littleEndian = true
      } else if order.elementsEqual([0x4D, 0x4D]) {
        littleEndian = false
      } else {
        return nil
      }
      guard try bytes.u16(at: tiffStart + 2, littleEndian: littleEndian) == 42 else { return nil }
      let ifd = try bytes.u32(at: tiffStart + 4, littleEndian: littleEndian)
      guard ifd >= 8, ifd <= tiffLength - 2 else { return nil }
      let entries = try bytes.u16(at: tiffStart + ifd, littleEndian: littleEndian)
      for index in 0..<min(entries, maxEntries) {
        let entry = ifd + 2 + 12 * index
        guard entry <= tiffLength - 12 else { return nil }
        let tag = try bytes.u16(at: tiffStart + entry, littleEndian: littleEndian)
        guard tag == artistTag else { continue }
        // ASCII (2) by the standard; BYTE (1) and UNDEFINED (7) are seen too.
        let type = try bytes.u16(at: tiffStart + entry + 2, littleEndian: littleEndian)
        guard type == 2 || type == 1 || type == 7 else { return nil }
        let count = try bytes.u32(at: tiffStart + entry + 4, littleEndian: littleEndian)
        guard count > 0 else { return nil }
        let valueOffset =
          count <= 4
          ? entry + 8 : try bytes.u32(at: tiffStart + entry + 8, littleEndian: littleEndian)
        guard valueOffset >= 0, valueOffset < tiffLength else { return nil }
        let length = min(count, maxValueBytes, tiffLength - valueOffset)
        return MetadataText.decode(
          try bytes.bytes(at: tiffStart + valueOffset, count: length), latin1: false)
      }
    } catch {
      return nil
    }
    return nil
  }
}
