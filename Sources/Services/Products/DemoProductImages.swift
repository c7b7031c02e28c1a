import Glibc
import Protocol

/// The pictures of the demo catalog: one PNG per kind of good (`DemoCatalog.kinds`),
/// a shape for its shelf (a carton of milk, a round fruit, a fish, a bottle…)
/// in the good's own colour, drawn here like the sample photos, so the
/// repository holds no binary files and an installed binary needs none; they
/// are in the public domain (CC0).
///
/// They live in `product-images/` of the data dir, written when a catalog
/// opens and finds some missing (each file under a temporary name, renamed
/// into place, so no one reads half of one). A catalog stores a demo
/// product's picture as `catalogd-demo:<kind>` (`storedValue`), which each
/// daemon reads as the `file:` URL of the picture in its own data dir
/// (`resolved`): a catalog on PostgreSQL is shared by daemons with different
/// data dirs, and a data dir may move. Clients can never store that form
/// (`ProductValidation.imageURL` refuses it).
public struct DemoProductImages: Sendable {
  /// The side of each square picture, in pixels.
  static let side = 192

  public let folder: String
  /// `file://` and the folder, percent-encoded: what every picture's URL starts with.
  private let urlPrefix: String
  /// `urlPrefix`'s UTF-8, for URLs written straight into JSON (`writeURL`).
  private let urlPrefixBytes: [UInt8]

  public init(dataDirectory: String) {
    folder = PhotoFiles.absolute(dataDirectory) + "/product-images"
    urlPrefix = "file://" + Self.percentEncoded(folder) + "/"
    urlPrefixBytes = Array(urlPrefix.utf8)
  }

  /// What a catalog stores as the picture of kind `kind` (an index of `DemoCatalog.kinds`).
  static func storedValue(kind: Int) -> String {
    storedPrefix + DemoCatalog.kinds[kind]
  }

  private static let storedPrefixLiteral: StaticString = "catalogd-demo:"
  private static let storedPrefix = storedPrefixLiteral.description

  /// The `file:` URL of the picture of kind `kind`.
  public func url(kind: Int) -> String {
    url(name: DemoCatalog.kinds[kind][...])
  }

  private func url(name: Substring) -> String {
    urlPrefix + name + ".png"
  }

  /// Whether `url` is one of the demo pictures' URLs.
  func isPicture(_ url: String) -> Bool {
    guard url.hasPrefix(urlPrefix), url.hasSuffix(".png") else { return false }
    return Self.kindNames.contains(String(url.dropFirst(urlPrefix.count).dropLast(4)))
  }

  private static let kindNames = Set(DemoCatalog.kinds)

  /// `product` as clients see it: a demo picture's stored form made a URL.
  func resolved(_ product: Product) -> Product {
    guard let stored = product.imageUrl, stored.hasPrefix(Self.storedPrefix) else { return product }
    var resolved = product
    resolved.imageUrl = url(name: stored.dropFirst(Self.storedPrefix.count))
    return resolved
  }

  /// Writes the JSON string of a product's stored `imageUrl`, as clients see it
  /// (`resolved`), from the bytes of its column.
  func writeURL<Output: JSONOutput & ~Copyable>(
    stored: UnsafeBufferPointer<UInt8>, into output: inout Output
  ) {
    let prefixCount = Self.storedPrefixLiteral.utf8CodeUnitCount
    guard stored.count >= prefixCount, let start = stored.baseAddress,
      memcmp(Self.storedPrefixLiteral.utf8Start, start, prefixCount) == 0
    else {
      JSONWriter.writeString(utf8: stored, into: &output)
      return
    }
    // The prefix is percent-encoded: nothing in it to escape.
    output.append(UInt8(ascii: "\""))
    urlPrefixBytes.withUnsafeBufferPointer { output.append(bytes: $0) }
    JSONWriter.writeContents(
      utf8: UnsafeBufferPointer(rebasing: stored[prefixCount...]), into: &output)
    JSONWriter.writeLiteral(#".png""#, into: &output)
  }

  func resolved(_ page: ProductPage) -> ProductPage {
    ProductPage(
      items: page.items.map(resolved), nextCursor: page.nextCursor, totalCount: page.totalCount)
  }

  /// Writes the pictures that are missing, on a thread of its own: drawing
  /// them takes longer than a request should wait, and nothing waits for them.
  public func populateInBackground() {
    if !DedicatedThread.start({ try? populate() }) { try? populate() }
  }

  /// Writes the pictures that are missing. Another daemon writing them at the
  /// same time writes the same bytes.
  public func populate() throws(PhotoFolderError) {
    var missing = DemoCatalog.kinds.indices.filter { PhotoFiles.status(path(kind: $0)) == nil }
    guard !missing.isEmpty else { return }
    try PhotoFiles.makeDirectories(folder)
    while let kind = missing.popLast() {
      let temporary = path(kind: kind) + ".partial-\(getpid())"
      try PhotoFiles.write(Self.picture(kind), to: temporary)
      guard rename(temporary, path(kind: kind)) == 0 else {
        let failure = errno
        unlink(temporary)
        throw PhotoFolderError.cannotWrite(path: path(kind: kind), errno: failure)
      }
    }
  }

  private func path(kind: Int) -> String {
    folder + "/" + DemoCatalog.kinds[kind] + ".png"
  }

  /// The PNG of good `index` of `DemoCatalog.kinds`.
  static func picture(_ index: Int) -> [UInt8] {
    PNGEncoder.encode(image(index))
  }

  /// A pale background ramp (palette 0–63), a shadow (64) and the shape in
  /// its colour, lit from the upper left (128–191).
  static func image(_ index: Int) -> SampleImage {
    let (shelf, color) = DemoCatalog.look(index)
    let background = (
      SamplePattern.mix((255, 255, 255), color, 1, 10),
      SamplePattern.mix((255, 255, 255), color, 3, 10)
    )
    var palette: [SampleImage.Color] = (0..<64).map {
      SamplePattern.mix(background.0, background.1, $0, 63)
    }
    palette.append(SamplePattern.mix(background.1, (60, 60, 60), 1, 4))
    palette += (65..<128).map { _ in (0, 0, 0) }
    palette += (0..<64).map { step in
      step < 32
        ? SamplePattern.mix((255, 255, 255), color, 8 + step * 24 / 32, 32)
        : SamplePattern.mix(color, (0, 0, 0), (step - 32) * 12 / 32, 32)
    }
    let side = Self.side
    var indexes = [UInt8](repeating: 0, count: side * side)
    for row in 0..<side {
      for column in 0..<side {
        // The shapes are drawn on a 256-pixel square.
        let (x, y) = (column * 256 / side, row * 256 / side)
        let pixel: UInt8
        if shelf.contains(x, y) {
          // Lighter towards the upper left, like a lamp above the shelf.
          pixel = UInt8(128 + (x + y) * 63 / 512)
        } else if shelf.shadow(x, y) {
          pixel = 64
        } else {
          pixel = UInt8(y * 63 / 255)
        }
        indexes[row * side + column] = pixel
      }
    }
    return SampleImage(width: side, height: side, palette: palette, indexes: indexes)
  }

  /// `path` with every byte but unreserved ones and `/` percent-encoded (RFC 3986).
  static func percentEncoded(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
