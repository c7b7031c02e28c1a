/// A picture in memory as the sample encoders take it: 8-bit indexes into a
/// palette of up to 256 colours, rows top to bottom. PNG and GIF store it as
/// it is; JPEG averages the colours; WebP keeps two of them.
struct SampleImage {
  typealias Color = (red: UInt8, green: UInt8, blue: UInt8)

  let width: Int
  let height: Int
  /// The colours; an index beyond them is black.
  let palette: [Color]
  /// `width * height` indexes into `palette`, row by row.
  let indexes: [UInt8]

  /// The colour of the pixel at (x, y).
  func color(_ x: Int, _ y: Int) -> Color {
    let index = Int(indexes[y * width + x])
    return index < palette.count ? palette[index] : (0, 0, 0)
  }
}
