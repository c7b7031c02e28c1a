import Foundation
import XCTest

@testable import Services

/// `PhotoFolderWalker`: the folders of a depth are read on several threads,
/// yet the files come out in the byte order of their paths, and a folder
/// reached twice is walked under the same path every time.
final class PhotoFolderWalkerTests: XCTestCase {
  private var root: String!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.path + "/catalogd-photo-walker-\(UUID())"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: root)
  }

  private func touch(_ relativePath: String, bytes: Int = 1) throws {
    let path = root + "/" + relativePath
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
  }

  private static func byteOrder(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
  }

  func testFilesComeInTheByteOrderOfTheirPathsWhereFolderNamesAreFollowedBySlash() throws {
    // "a.png" < "a/…" < "a0.png", since "." < "/" < "0"; "a-b" < "a.png".
    let paths = [
      "a0.png", "a/x.png", "a.png", "a-b/y.png", "a-b.png", "B/z.png", "é/1.png", "e/1.png",
      "a/b/c/d.png", "a/b.png", "a/b0.png",
    ]
    for path in paths { try touch(path) }
    let walk = try PhotoFolderWalker(root: root).walk()
    XCTAssertEqual(walk.files.map(\.relativePath), paths.sorted(by: Self.byteOrder))
    XCTAssertEqual(
      walk.files.map(\.relativePath),
      [
        "B/z.png", "a-b.png", "a-b/y.png", "a.png", "a/b.png", "a/b/c/d.png", "a/b0.png",
        "a/x.png", "a0.png", "e/1.png", "é/1.png",
      ])
    XCTAssertTrue(walk.skipped.isEmpty)
  }

  func testManyFoldersReadAtOnceGiveTheSameFilesSizesAndOrder() throws {
    // More folders than threads, at several depths.
    var expected: [String: Int] = [:]
    for folder in 0..<3 * PhotoFolderWalker.threads {
      for file in 0..<5 {
        let path = "f\(folder)/\(file % 2 == 0 ? "sub/" : "")p\(file).png"
        try touch(path, bytes: folder * 10 + file + 1)
        expected[path] = folder * 10 + file + 1
      }
    }
    let walk = try PhotoFolderWalker(root: root).walk()
    XCTAssertEqual(walk.files.map(\.relativePath), expected.keys.sorted(by: Self.byteOrder))
    for file in walk.files {
      XCTAssertEqual(Int(file.size), expected[file.relativePath], file.relativePath)
    }
    // And again: the same result, whichever thread read which folder.
    let again = try PhotoFolderWalker(root: root).walk()
    XCTAssertEqual(again.files, walk.files)
  }

  func testTheFilesOfOneLargeFolderAreSharedBetweenThreadsInOrder() throws {
    // More entries than one thread takes at a time, a sub-folder among them.
    let count = 4 * PhotoFolderWalker.statsPerTask + 3
    var expected: [String: Int] = [:]
    for number in 0..<count {
      let path = number % 100 == 7 ? "p\(number)/inside.png" : "p\(number).png"
      try touch(path, bytes: number % 50 + 1)
      expected[path] = number % 50 + 1
    }
    let walk = try PhotoFolderWalker(root: root).walk()
    XCTAssertEqual(walk.files.map(\.relativePath), expected.keys.sorted(by: Self.byteOrder))
    XCTAssertEqual(
      walk.files.map { Int($0.size) }, walk.files.map { expected[$0.relativePath] ?? -1 })
    XCTAssertTrue(walk.skipped.isEmpty)
  }

  func testAFolderLinkedTwiceIsWalkedUnderThePathFirstInOrder() throws {
    try touch("m/photo.png")
    // "k" and "z" both lead to "m": at depth 1 "k" comes first, so "m" and
    // "z" are the ones left out, every time.
    try FileManager.default.createSymbolicLink(atPath: root + "/k", withDestinationPath: "m")
    try FileManager.default.createSymbolicLink(atPath: root + "/z", withDestinationPath: "m")
    for _ in 0..<5 {
      let walk = try PhotoFolderWalker(root: root).walk()
      XCTAssertEqual(walk.files.map(\.relativePath), ["k/photo.png"])
      XCTAssertEqual(
        walk.skipped.map(\.relativePath).sorted(), ["m", "z"])
      XCTAssertEqual(
        Set(walk.skipped.map(\.reason)), ["a folder already walked (a link loop?)"])
    }
  }

  func testFoldersDeeperThanTheLimitAreSkippedWithALogLine() throws {
    let limit = PhotoFolderWalker.maxDepth
    let deepest = Array(repeating: "d", count: limit).joined(separator: "/")
    try touch(deepest + "/kept.png")
    try touch(deepest + "/d/lost.png")
    let walk = try PhotoFolderWalker(root: root).walk()
    XCTAssertEqual(walk.files.map(\.relativePath), [deepest + "/kept.png"])
    XCTAssertEqual(walk.skipped.map(\.relativePath), [deepest + "/d"])
    XCTAssertEqual(walk.skipped.map(\.reason), ["deeper than \(limit) folders"])
  }

  func testAFolderThatCannotBeOpenedIsSkippedWithItsReason() throws {
    try touch("open/a.png")
    try touch("shut/b.png")
    chmod(root + "/shut", 0)
    defer { chmod(root + "/shut", 0o755) }
    let walk = try PhotoFolderWalker(root: root).walk()
    if getuid() == 0 {
      // root opens it anyway
      XCTAssertEqual(walk.files.map(\.relativePath), ["open/a.png", "shut/b.png"])
    } else {
      XCTAssertEqual(walk.files.map(\.relativePath), ["open/a.png"])
      XCTAssertEqual(walk.skipped.map(\.relativePath), ["shut"])
      XCTAssertTrue(walk.skipped[0].reason.hasPrefix("cannot open the folder: "))
    }
  }
}
