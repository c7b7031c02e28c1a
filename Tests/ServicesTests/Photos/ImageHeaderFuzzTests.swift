import XCTest

@testable import Services

/// `ImageHeader` never crashes, hangs or reads past its budget, whatever the
/// bytes: random ones, every truncation and bit flips of valid files.
final class ImageHeaderFuzzTests: XCTestCase {
  /// Valid files of each format, with metadata, to cut and corrupt.
  private let seeds: [[UInt8]] = [
    TestImages.png(
      width: 5, height: 3,
      extra: [
        TestImages.pngText("Author", Array("A".utf8)),
        TestImages.pngInternationalText("Artist", "B"),
      ]),
    TestImages.gif(width: 9, height: 7),
    TestImages.webpLossy(width: 30, height: 20),
    TestImages.webpLossless(width: 31, height: 21),
    TestImages.webpExtended(
      width: 32, height: 22, exif: TestImages.exifArtist("C", littleEndian: true)),
    TestImages.jpeg(
      width: 40, height: 30, before: TestImages.jpegExif(TestImages.exifArtist("D E F G"))),
    SamplePhotos.file(5),  // a real JPEG with EXIF
    SamplePhotos.file(7),  // a real extended WebP with EXIF
  ]

  /// Reads `bytes`, checking what a result may be.
  private func probe(_ bytes: [UInt8], _ context: @autoclosure () -> String) {
    let source = ImageBytes(bytes)
    do {
      let header = try ImageHeader.read(source, readingAuthor: true)
      XCTAssertGreaterThan(header.width, 0, context())
      XCTAssertGreaterThan(header.height, 0, context())
      XCTAssertLessThanOrEqual(header.author?.count ?? 0, MetadataText.maxCharacters, context())
    } catch {
      // Any ImageHeaderError is a fine answer.
    }
    XCTAssertLessThanOrEqual(source.readsUsed, ImageBytes.maxReads, context())
  }

  func testSeedsAreValid() throws {
    for (index, seed) in seeds.enumerated() {
      XCTAssertNoThrow(try ImageHeader.read(bytes: seed), "seed \(index)")
    }
  }

  func testEveryTruncationOfEverySeed() {
    for (index, seed) in seeds.enumerated() {
      for length in 0..<seed.count {
        probe(Array(seed.prefix(length)), "seed \(index) cut at \(length)")
      }
    }
  }

  func testTruncatedHeadersAreRefusedAndWholeOnesRead() throws {
    // Cut before the size fields, a file is refused; a PNG needs its whole IHDR.
    let png = TestImages.png(width: 5, height: 3)
    for length in 0..<33 {
      XCTAssertThrowsError(
        try ImageHeader.read(bytes: Array(png.prefix(length))), "cut at \(length)")
    }
    XCTAssertEqual(try ImageHeader.read(bytes: Array(png.prefix(33))).width, 5)
  }

  func testBitFlipsOfEverySeed() {
    var random = SplitMix64(seed: 2_024)
    for (index, seed) in seeds.enumerated() {
      for _ in 0..<2_000 {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let position = Int.random(in: 0..<bytes.count, using: &random)
          bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
        }
        probe(bytes, "seed \(index) flipped")
      }
    }
  }

  func testRandomBytesBehindEachSignature() {
    var random = SplitMix64(seed: 77)
    let prefixes: [[UInt8]] = [
      [], [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      Array("GIF89a".utf8),
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8),
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8L".utf8),
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
    ]
    for prefix in prefixes {
      for _ in 0..<3_000 {
        let length = Int.random(in: 0...300, using: &random)
        let tail = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        probe(prefix + tail, "prefix \(prefix)")
      }
    }
  }

  func testJPEGOfRandomSegmentsEndsWithinTheBudget() {
    // Long runs of plausible segments: the walk ends by its budget or the file's end.
    var random = SplitMix64(seed: 5)
    for _ in 0..<200 {
      var bytes: [UInt8] = [0xFF, 0xD8]
      for _ in 0..<Int.random(in: 1...200, using: &random) {
        let marker = UInt8.random(in: 0xC0...0xFE, using: &random)
        let length = Int.random(in: 0...3_000, using: &random)
        bytes += [0xFF, marker] + TestImages.be16(length)
        // The body's bytes matter little: the walk seeks over it.
        let fill = UInt8.random(in: 0...255, using: &random)
        bytes += [UInt8](repeating: fill, count: max(0, length - 2))
      }
      probe(bytes, "random segments")
    }
  }
}
