import Foundation
import XCTest

@testable import Services

/// `ImageHeader`: dimensions and author from JPEG, PNG, GIF and WebP headers.
final class ImageHeaderTests: XCTestCase {
  private func header(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
    throws -> ImageHeader
  {
    try ImageHeader.read(bytes: bytes)
  }

  private func error(_ bytes: [UInt8]) -> ImageHeaderError? {
    do {
      let header = try ImageHeader.read(bytes: bytes)
      XCTFail("expected an error, got \(header)")
      return nil
    } catch {
      return error
    }
  }

  func testCRC32MatchesItsCheckValue() {
    XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
  }

  // MARK: PNG

  func testPNGDimensionsFromIHDR() throws {
    XCTAssertEqual(
      try header(TestImages.png(width: 3, height: 2)),
      ImageHeader(format: .png, width: 3, height: 2))
    XCTAssertEqual(try header(TestImages.png(width: 70_000, height: 1)).width, 70_000)
  }

  func testPNGAuthorFromTextChunks() throws {
    let latin1 = TestImages.pngText(
      "Author", Array("Zo\u{EB}".unicodeScalars.map { UInt8($0.value) }))
    XCTAssertEqual(try header(TestImages.png(width: 1, height: 1, extra: [latin1])).author, "Zoë")
    let artist = TestImages.pngText("Artist", Array("  Ada Park \n".utf8))
    XCTAssertEqual(
      try header(TestImages.png(width: 1, height: 1, extra: [artist])).author, "Ada Park")
    let international = TestImages.pngInternationalText("Author", "김민준")
    XCTAssertEqual(
      try header(TestImages.png(width: 1, height: 1, extra: [international])).author, "김민준")
    let other = TestImages.pngText("Comment", Array("not an author".utf8))
    XCTAssertNil(try header(TestImages.png(width: 1, height: 1, extra: [other])).author)
    XCTAssertNil(
      try ImageHeader.read(
        bytes: TestImages.png(width: 1, height: 1, extra: [artist]), readingAuthor: false
      ).author)
  }

  func testPNGTextAfterTheImageDataIsNotLookedFor() throws {
    var file = TestImages.png(width: 2, height: 2)
    let end = file.count - 12
    file.insert(contentsOf: TestImages.pngText("Author", Array("late".utf8)), at: end)
    XCTAssertNil(try header(file).author)
    XCTAssertEqual(try header(file).width, 2)
  }

  func testPNGWithABadChecksumOrNoIHDRIsMalformed() {
    var file = TestImages.png(width: 4, height: 4)
    file[19] ^= 0x01  // the width, under the checksum
    XCTAssertEqual(error(file), .malformed("bad IHDR checksum"))
    var zero = TestImages.png(width: 0, height: 4)
    XCTAssertEqual(error(zero), .malformed("width or height out of range"))
    zero = TestImages.png(width: 1, height: 1)
    zero.replaceSubrange(12..<16, with: Array("IDAT".utf8))
    XCTAssertEqual(error(zero), .malformed("the first chunk is not IHDR"))
  }

  // MARK: GIF

  func testGIFLogicalScreen() throws {
    XCTAssertEqual(
      try header(TestImages.gif(width: 640, height: 480)),
      ImageHeader(format: .gif, width: 640, height: 480))
    XCTAssertEqual(
      try header(TestImages.gif(width: 1, height: 65_535, version: "GIF87a")).height, 65_535)
    XCTAssertEqual(
      error(TestImages.gif(width: 0, height: 5)), .malformed("zero logical screen size"))
  }

  /// A GIF of `TestImages.gif` with `blocks` between its colour table and its image.
  private func gif(_ blocks: [UInt8]) -> [UInt8] {
    let plain = TestImages.gif(width: 3, height: 2)
    return Array(plain[..<19]) + blocks + Array(plain[19...])
  }

  func testGIFAuthorFromXMPAfterOtherExtensions() throws {
    let xmp = XMPCreator.gifExtension(XMPCreator.packet(creator: "Ada & <Bo> Park"))
    let comment: [UInt8] = [0x21, 0xFE, 3] + Array("hi!".utf8) + [0]
    let control: [UInt8] = [0x21, 0xF9, 4, 0, 0, 0, 0, 0]
    XCTAssertEqual(
      try header(gif(comment + control + xmp)),
      ImageHeader(format: .gif, width: 3, height: 2, author: "Ada & <Bo> Park"))
    XCTAssertNil(try header(gif(comment)).author, "a comment is not an author")
    XCTAssertNil(try header(TestImages.gif(width: 3, height: 2) + xmp).author, "after the image")
    XCTAssertNil(
      try ImageHeader.read(bytes: gif(xmp), readingAuthor: false).author, "not asked for")
  }

  func testGIFXMPVariantsAndDamage() throws {
    func xmp(_ text: String) -> [UInt8] { XMPCreator.gifExtension(Array(text.utf8)) }
    let spaced =
      #"<x:xmpmeta><rdf:RDF><rdf:Description><dc:creator> <rdf:Seq> <rdf:li xml:lang="ko">"#
      + "&#xAE40;&#48124;&#51456; </rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF>"
    XCTAssertEqual(try header(gif(xmp(spaced))).author, "김민준")
    XCTAssertNil(try header(gif(xmp("<x:xmpmeta><dc:title>t</dc:title></x:xmpmeta>"))).author)
    // Cut inside the packet: the size is still read, the author is not.
    let cut = Array(gif(xmp(spaced)).prefix(19 + 60))
    XCTAssertEqual(try header(cut), ImageHeader(format: .gif, width: 3, height: 2))
    // An extension whose sub-blocks run past the end.
    XCTAssertEqual(
      try header(Array(plainPrefix()) + [0x21, 0xFE, 200, 1, 2]),
      ImageHeader(format: .gif, width: 3, height: 2))
  }

  private func plainPrefix() -> ArraySlice<UInt8> {
    TestImages.gif(width: 3, height: 2)[..<19]
  }

  // MARK: WebP

  func testWebPLossyLosslessAndExtended() throws {
    XCTAssertEqual(
      try header(TestImages.webpLossy(width: 550, height: 368)),
      ImageHeader(format: .webp, width: 550, height: 368))
    XCTAssertEqual(
      try header(TestImages.webpLossless(width: 16_384, height: 1)),
      ImageHeader(format: .webp, width: 16_384, height: 1))
    XCTAssertEqual(
      try header(TestImages.webpExtended(width: 20_000, height: 3)),
      ImageHeader(format: .webp, width: 20_000, height: 3))
  }

  func testWebPLossyScaleBitsAreNotPartOfTheSize() throws {
    var file = TestImages.webpLossy(width: 100, height: 50)
    file[27] |= 0xC0  // horizontal scale 3
    XCTAssertEqual(try header(file).width, 100)
  }

  func testWebPAuthorFromTheEXIFChunk() throws {
    let file = TestImages.webpExtended(
      width: 8, height: 8, exif: TestImages.exifArtist("Kenji Sato", littleEndian: true))
    XCTAssertEqual(try header(file).author, "Kenji Sato")
    let prefixed = TestImages.webpExtended(
      width: 8, height: 8, exif: Array("Exif".utf8) + [0, 0] + TestImages.exifArtist("Lena"))
    XCTAssertEqual(try header(prefixed).author, "Lena")
  }

  func testWebPThatIsNotAKeyFrameOrHasAnUnknownChunkIsMalformed() {
    XCTAssertEqual(
      error(TestImages.webpLossy(width: 5, height: 5, keyFrame: false)),
      .malformed("the first VP8 frame is not a key frame"))
    XCTAssertEqual(
      error(TestImages.riff(TestImages.riffChunk("ALPH", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))),
      .malformed("the first chunk is not VP8, VP8L or VP8X"))
  }

  // MARK: JPEG

  func testJPEGDimensionsFromEachStartOfFrame() throws {
    for marker: UInt8 in [
      0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
    ] {
      XCTAssertEqual(
        try header(TestImages.jpeg(width: 1_024, height: 768, frameMarker: marker)),
        ImageHeader(format: .jpeg, width: 1_024, height: 768), "marker \(marker)")
    }
  }

  func testJPEGTablesThatLookLikeFramesAreSkipped() throws {
    // DHT (C4), JPG (C8) and DAC (CC) are in the SOF range but are not frames.
    let tables =
      TestImages.segment(0xC4, [0, 1] + [UInt8](repeating: 0, count: 15) + [0])
      + TestImages.segment(0xC8, [9, 9, 9, 9, 9, 9])
      + TestImages.segment(0xCC, [0, 0x10])
    XCTAssertEqual(try header(TestImages.jpeg(width: 7, height: 9, before: tables)).width, 7)
  }

  func testJPEGFillBytesAndStrayBytesBetweenSegments() throws {
    var file = TestImages.jpeg(width: 33, height: 44)
    // Fill bytes before the DQT marker, and stray bytes before that.
    let dqt = 2 + 18
    file.insert(contentsOf: [0x00, 0x12, 0xFF, 0xFF, 0xFF], at: dqt)
    XCTAssertEqual(try header(file), ImageHeader(format: .jpeg, width: 33, height: 44))
  }

  func testJPEGAuthorFromEXIFArtistInBothByteOrders() throws {
    for littleEndian in [false, true] {
      let exif = TestImages.jpegExif(
        TestImages.exifArtist("Sofia Rossi", littleEndian: littleEndian))
      XCTAssertEqual(
        try header(TestImages.jpeg(width: 2, height: 2, before: exif)).author, "Sofia Rossi")
    }
    // A value of at most four bytes sits in the entry itself.
    let short = TestImages.jpegExif(TestImages.exifArtist("Bo"))
    XCTAssertEqual(try header(TestImages.jpeg(width: 2, height: 2, before: short)).author, "Bo")
    let none = TestImages.jpegExif(
      TestImages.tiff(littleEndian: true, entries: [(0x010F, 2, Array("Canon\0".utf8))]))
    XCTAssertNil(try header(TestImages.jpeg(width: 2, height: 2, before: none)).author)
  }

  func testJPEGRotatedByEXIFKeepsItsStoredDimensions() throws {
    let exif = TestImages.jpegExif(TestImages.exifArtist("Ada", orientation: 6))
    let rotated = try header(TestImages.jpeg(width: 400, height: 300, before: exif))
    XCTAssertEqual(rotated, ImageHeader(format: .jpeg, width: 400, height: 300, author: "Ada"))
  }

  func testJPEGBrokenEXIFStillGivesDimensions() throws {
    var tiff = TestImages.exifArtist("Someone")
    tiff[7] = 0xF0  // the IFD offset points past the segment
    let file = TestImages.jpeg(width: 10, height: 20, before: TestImages.jpegExif(tiff))
    XCTAssertEqual(try header(file), ImageHeader(format: .jpeg, width: 10, height: 20))
  }

  func testJPEGFrameAfterLargeSegmentsIsReachedBySeeking() throws {
    // 40 KB of APP2 (an ICC profile, say) in three segments: each is skipped
    // by its length, and a window is read only where the next marker is.
    let big = (0..<3).flatMap { _ in
      TestImages.segment(0xE2, [UInt8](repeating: 0xAB, count: 13_000))
    }
    let bytes = ImageBytes(TestImages.jpeg(width: 5_000, height: 3_000, before: big))
    XCTAssertEqual(try ImageHeader.read(bytes, readingAuthor: true).width, 5_000)
    XCTAssertLessThanOrEqual(bytes.readsUsed, 4)
  }

  func testJPEGWithTooManyFarSegmentsStopsAtTheReadBudget() throws {
    let far = (0..<40).flatMap { _ in TestImages.segment(0xE3, [UInt8](repeating: 0, count: 5_000))
    }
    let bytes = ImageBytes(TestImages.jpeg(width: 5, height: 5, before: far))
    XCTAssertThrowsError(try ImageHeader.read(bytes, readingAuthor: true)) { error in
      XCTAssertEqual(error as? ImageHeaderError, .readLimit)
    }
    XCTAssertEqual(bytes.readsUsed, ImageBytes.maxReads)
  }

  func testJPEGWithoutAFrameOrWithADeferredHeightIsMalformed() {
    let scanFirst: [UInt8] =
      [0xFF, 0xD8] + TestImages.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0xFF, 0xD9]
    XCTAssertEqual(error(scanFirst), .malformed("no frame header before the image data"))
    XCTAssertEqual(
      error(TestImages.jpeg(width: 10, height: 0)),
      .malformed("height given later (DNL) is not supported"))
    let shortLength: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0x00, 0x00]
    XCTAssertEqual(error(shortLength), .malformed("segment length below 2"))
  }

  // MARK: Not images

  func testOtherFilesAreNotImages() {
    XCTAssertEqual(error([]), .notAnImage)
    XCTAssertEqual(error(Array("hello, this is text\n".utf8)), .notAnImage)
    XCTAssertEqual(error(Array("%PDF-1.7\n%…".utf8)), .notAnImage)
    XCTAssertEqual(error(TestImages.riff([]).prefix(11).map { $0 }), .truncated)
    XCTAssertEqual(error([0xFF, 0xD8, 0xFF]), .truncated)
    XCTAssertEqual(error(Array("GIF8".utf8)), .truncated)
    XCTAssertEqual(error(Array("hi".utf8)), .notAnImage)
    XCTAssertEqual(error(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)), .notAnImage)
  }

  // MARK: Files

  func testReadsFilesFromDisk() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/catalogd-header-\(UUID())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/a.png"
    try Data(TestImages.png(width: 12, height: 34)).write(to: URL(fileURLWithPath: path))
    XCTAssertEqual(
      try ImageHeader.read(path: path), ImageHeader(format: .png, width: 12, height: 34))
    XCTAssertThrowsError(try ImageHeader.read(path: folder + "/missing.png")) { error in
      XCTAssertEqual(error as? ImageHeaderError, .unreadable(errno: ENOENT))
    }
    XCTAssertThrowsError(try ImageHeader.read(path: folder)) { error in
      XCTAssertEqual(error as? ImageHeaderError, .notAnImage)
    }
  }
}
