import Glibc

/// The sample pictures a fresh machine lists: 120 small images (PNG, GIF,
/// JPEG and WebP, of several sizes, each naming its author), drawn here
/// from gradients and patterns, the same bytes on every run. Generated, so the
/// repository holds no binary files and an installed binary needs none; they
/// are in the public domain (CC0).
///
/// The folder backend writes them into its default folder the first time it
/// finds that folder missing.
public enum SamplePhotos {
  /// How many images there are: four pages of 30 and more.
  public static let count = 120

  /// The names authors in the samples' metadata: made up.
  static let authors = ["Ada Park", "Min-jun Kim", "Sofia Rossi", "Kenji Sato", "Lena Novak"]

  /// The picture sizes, taken in turn.
  static let sizes = [
    (240, 180), (180, 240), (200, 150), (150, 200), (192, 192), (256, 144), (144, 256),
    (210, 160), (160, 160), (240, 160), (160, 240), (224, 168),
  ]

  /// Pairs of colours the patterns blend.
  static let palettes: [((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))] = [
    ((255, 94, 77), (255, 205, 86)), ((46, 134, 222), (84, 225, 190)),
    ((106, 27, 154), (255, 112, 166)), ((20, 33, 61), (252, 163, 17)),
    ((0, 109, 119), (237, 246, 249)), ((56, 142, 60), (220, 237, 200)),
    ((244, 81, 30), (38, 50, 56)), ((255, 255, 255), (33, 150, 243)),
    ((121, 85, 72), (255, 236, 179)), ((0, 0, 0), (255, 64, 129)),
  ]

  /// The relative path of sample `number` (from 1): most at the top, the
  /// last 24 in a sub-folder ("travel", after them in path order), so that
  /// listing walks into folders.
  static func relativePath(_ number: Int) -> String {
    let digits = String(number)
    let name = "sample-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    return (number > 96 ? "travel/" : "") + name + "." + format(number).fileExtension
  }

  /// Sample `number`'s format: a GIF, a JPEG and a WebP file in every eight.
  static func format(_ number: Int) -> ImageFormat {
    switch number % 8 {
    case 3: .gif
    case 5: .jpeg
    case 7: .webp
    default: .png
    }
  }

  /// The author sample `number` names (in its EXIF, PNG text or GIF XMP).
  static func author(_ number: Int) -> String {
    authors[number % authors.count]
  }

  /// The file of sample `number` (1...count).
  static func file(_ number: Int) -> [UInt8] {
    let image = self.image(number)
    switch format(number) {
    case .png: return PNGEncoder.encode(image, author: author(number))
    case .gif: return GIFEncoder.encode(image, author: author(number))
    case .jpeg: return JPEGEncoder.encode(image, author: author(number))
    case .webp: return WebPEncoder.encode(image, author: author(number))
    }
  }

  /// The picture of sample `number`: its pattern's levels on a 256-step ramp
  /// between its two colours.
  static func image(_ number: Int) -> SampleImage {
    let (width, height) = sizes[number % sizes.count]
    let colors = palettes[number % palettes.count]
    let pattern = SamplePattern(number: number, width: width, height: height)
    let ramp: [SampleImage.Color] = (0..<256).map { SamplePattern.mix(colors.0, colors.1, $0, 255) }
    var indexes = [UInt8](repeating: 0, count: width * height)
    var levels = [Int](repeating: 0, count: width)
    indexes.withUnsafeMutableBufferPointer { indexes in
      levels.withUnsafeMutableBufferPointer { levels in
        for y in 0..<height {
          pattern.fill(row: y, into: levels)
          for x in 0..<width {
            indexes[y * width + x] = UInt8(levels[x] * 255 / SamplePattern.levels)
          }
        }
      }
    }
    return SampleImage(width: width, height: height, palette: ramp, indexes: indexes)
  }

  /// Writes every sample under `folder` (created if missing), replacing
  /// files of the same names.
  public static func write(into folder: String) throws(PhotoFolderError) {
    for number in 1...count {
      let path = folder + "/" + relativePath(number)
      let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      try PhotoFiles.makeDirectories(parent)
      try PhotoFiles.write(file(number), to: path)
    }
  }

  /// Makes `folder` hold the samples when it does not exist yet: they are
  /// written to a temporary folder beside it, renamed into place at once, so
  /// no one ever lists half of them. Returns whether this call wrote them
  /// (false when the folder existed, or another process made it first).
  @discardableResult
  public static func populate(_ folder: String) throws(PhotoFolderError) -> Bool {
    var status = stat()
    if stat(folder, &status) == 0 { return false }
    let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
    if !parent.isEmpty {
      try PhotoFiles.makeDirectories(parent)
    }
    let temporary = folder + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    do {
      try write(into: temporary)
    } catch {
      removeSamples(from: temporary)
      throw error
    }
    if rename(temporary, folder) == 0 { return true }
    let failure = errno
    removeSamples(from: temporary)
    // Another daemon populated it meanwhile: theirs is the same.
    if failure == EEXIST || failure == ENOTEMPTY { return false }
    throw PhotoFolderError.cannotCreate(path: folder, errno: failure)
  }

  /// Removes the samples written into `folder`, and the folder if that empties it.
  static func removeSamples(from folder: String) {
    for number in 1...count {
      unlink(folder + "/" + relativePath(number))
    }
    rmdir(folder + "/travel")
    rmdir(folder)
  }
}
