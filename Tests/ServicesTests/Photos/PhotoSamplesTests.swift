import Foundation
import XCTest

@testable import Services

/// `SamplePhotos`: the generated default folder holds real, decodable images
/// of several formats and sizes, the same bytes every time.
final class PhotoSamplesTests: XCTestCase {
  private var folder: String!

  /// Every sample's picture and file, made once for all the tests.
  private static let samples: [(image: SampleImage, file: [UInt8])] = (1...SamplePhotos.count).map {
    (SamplePhotos.image($0), SamplePhotos.file($0))
  }

  private func image(_ number: Int) -> SampleImage { Self.samples[number - 1].image }
  private func file(_ number: Int) -> [UInt8] { Self.samples[number - 1].file }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.path + "/catalogd-samples-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testThereAreEnoughForFourPagesInEveryFormat() {
    XCTAssertGreaterThanOrEqual(SamplePhotos.count, 4 * 30)
    let formats = Set((1...SamplePhotos.count).map(SamplePhotos.format))
    XCTAssertEqual(formats, Set(ImageFormat.allCases))
    let paths = (1...SamplePhotos.count).map(SamplePhotos.relativePath)
    XCTAssertEqual(Set(paths).count, paths.count)
    XCTAssertEqual(paths.first, "sample-001.png")
    XCTAssertEqual(paths.last, "travel/sample-120.png")
  }

  func testEveryHeaderSaysWhatWasDrawn() throws {
    for number in 1...SamplePhotos.count {
      let drawn = image(number)
      let header = try ImageHeader.read(bytes: file(number))
      XCTAssertEqual(
        header,
        ImageHeader(
          format: SamplePhotos.format(number), width: drawn.width, height: drawn.height,
          author: SamplePhotos.author(number)), "sample \(number)")
    }
    // Every sample names an author, GIFs too (in XMP), and not all the same one.
    let authors = try (1...SamplePhotos.count).map {
      try XCTUnwrap(ImageHeader.read(bytes: file($0)).author, "sample \($0)")
    }
    XCTAssertGreaterThan(Set(authors).count, 3)
  }

  func testPNGSamplesDecodeToTheirPictures() throws {
    for number in 1...SamplePhotos.count where SamplePhotos.format(number) == .png {
      let drawn = image(number)
      let decoded = try PhotoSampleDecoders.png(file(number))
      XCTAssertEqual(decoded.width, drawn.width)
      XCTAssertEqual(decoded.height, drawn.height)
      XCTAssertEqual(decoded.indexes, drawn.indexes, "sample \(number)")
      XCTAssertEqual(decoded.palette, drawn.palette.flatMap { [$0.red, $0.green, $0.blue] })
    }
  }

  func testGIFSamplesDecodeToTheirPictures() throws {
    for number in 1...SamplePhotos.count where SamplePhotos.format(number) == .gif {
      let drawn = image(number)
      let decoded = try PhotoSampleDecoders.gif(file(number))
      XCTAssertEqual(decoded.width, drawn.width)
      XCTAssertEqual(decoded.indexes, drawn.indexes, "sample \(number)")
    }
  }

  func testLZWAndDeflateRoundTripNoiseAndRuns() throws {
    var random = SplitMix64(seed: 11)
    for length in [0, 1, 2, 3, 257, 5_000, 70_000] {
      let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let runs = (0..<length).map { UInt8(($0 / 300) % 4) }
      for data in [noise, runs] {
        XCTAssertEqual(try PhotoSampleDecoders.inflateZlib(Deflate.zlib(data)), data)
        let width = max(length, 1)
        let image = SampleImage(
          width: width, height: 1, palette: [], indexes: data.isEmpty ? [0] : data)
        XCTAssertEqual(try PhotoSampleDecoders.gif(GIFEncoder.encode(image)).indexes, image.indexes)
      }
    }
  }

  func testJPEGAndWebPSamplesAreWellFormed() throws {
    for number in 1...SamplePhotos.count {
      let bytes = file(number)
      switch SamplePhotos.format(number) {
      case .jpeg:
        XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(Array(bytes.suffix(2)), [0xFF, 0xD9])
      case .webp:
        let riffSize =
          Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        XCTAssertEqual(riffSize + 8, bytes.count, "sample \(number)")
      default:
        break
      }
    }
  }

  func testTheSamplesAreTheSameEveryTimeAndSmall() {
    var total = 0
    for number in [1, 3, 5, 7, 8, 120] {
      XCTAssertEqual(SamplePhotos.file(number), file(number))
    }
    for number in 1...SamplePhotos.count {
      total += file(number).count
    }
    XCTAssertLessThan(total, 2_000_000)
  }

  func testPopulateWritesAMissingFolderOnce() throws {
    let target = folder + "/data/photos"
    XCTAssertTrue(try SamplePhotos.populate(target))
    let written = try FileManager.default.subpathsOfDirectory(atPath: target)
      .filter { $0.contains(".") }
    XCTAssertEqual(written.count, SamplePhotos.count)
    let first = try Data(contentsOf: URL(fileURLWithPath: target + "/sample-001.png"))
    XCTAssertEqual(Array(first), file(1))
    XCTAssertFalse(try SamplePhotos.populate(target))
    // No partial folder is left beside it.
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder + "/data"), ["photos"])
  }

  func testPopulateLeavesAnExistingFolderAlone() throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    XCTAssertFalse(try SamplePhotos.populate(folder))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
  }
}
