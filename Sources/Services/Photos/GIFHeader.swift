/// GIF (87a and 89a): the logical screen's width and height, little-endian
/// after the six-byte signature.
enum GIFHeader {
  static func read(_ bytes: ImageBytes) throws(ImageHeaderError) -> ImageHeader {
    let width = try bytes.u16le(at: 6)
    let height = try bytes.u16le(at: 8)
    guard width > 0, height > 0 else { throw .malformed("zero logical screen size") }
    return ImageHeader(format: .gif, width: width, height: height)
  }
}
