import Glibc

/// A folder of `count` small image files for the photos figures: JPEG and PNG
/// in turn, 1,000 to a sub-folder (`roll-000/IMG_000000.jpg`, …), as a camera
/// lays them out.
///
/// Each file has valid headers (JPEG: SOI, APP0, a comment, SOF0 and EOI; PNG:
/// the signature, IHDR, a `tEXt` comment and IEND, with their checksums) and
/// no pixel data: the daemon reads headers only, and 100,000 files stay near
/// 100 MB. The comment pads them to 0.2–2.2 KB, so that the JPEG reader seeks
/// over a segment as it does over the EXIF block of a real photo.
///
/// Made once per count into `.build/bench-data/photos-N` (written beside it,
/// then renamed, so an interrupted run leaves no half folder) and reused: the
/// figures need the same files, with the same modification times, run after run.
func generatedPhotoFolder(_ count: Int) throws -> String {
  let path = ".build/bench-data/photos-\(count)"
  if access(path, F_OK) == 0 { return path }
  printError("writing \(count) image files into \(path) (once)…")
  for folder in [".build", ".build/bench-data"] {
    guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
      throw BenchError.system(call: "mkdir \(folder)", errno: errno)
    }
  }
  let partial = path + ".partial"
  removeTree(partial)
  try makeDirectory(partial)
  for index in 0..<count {
    let roll = partial + "/roll-" + zeroPadded(index / 1_000, digits: 3)
    if index % 1_000 == 0 { try makeDirectory(roll) }
    let isJPEG = index % 2 == 0
    let name = "/IMG_" + zeroPadded(index, digits: 6) + (isJPEG ? ".jpg" : ".png")
    let (width, height) = SampleSize.of(index)
    // 200 to 2,247 bytes of comment, spread over the files.
    let padding = 200 + (index &* 7_919) % 2_048
    let bytes =
      isJPEG
      ? HeaderOnlyImage.jpeg(width: width, height: height, padding: padding)
      : HeaderOnlyImage.png(width: width, height: height, padding: padding)
    try writeFile(roll + name, bytes)
  }
  guard rename(partial, path) == 0 else {
    throw BenchError.system(call: "rename \(partial)", errno: errno)
  }
  return path
}

/// Photo sizes of phones and cameras, landscape and portrait.
private enum SampleSize {
  static let sizes = [(4_032, 3_024), (3_024, 4_032), (1_920, 1_080), (1_080, 1_920), (640, 480)]

  static func of(_ index: Int) -> (Int, Int) { sizes[index % sizes.count] }
}

private func makeDirectory(_ path: String) throws {
  guard mkdir(path, 0o755) == 0 else {
    throw BenchError.system(call: "mkdir \(path)", errno: errno)
  }
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw BenchError.system(call: "open \(path)", errno: errno) }
  defer { close(fd) }
  try bytes.withUnsafeBytes { try writeAll(fd, $0) }
}

/// `value` in decimal, with leading zeros to `digits` digits.
private func zeroPadded(_ value: Int, digits: Int) -> String {
  let text = String(value)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}
