import Glibc

/// One image of the folder as the index lists it.
public struct IndexedPhoto: Sendable, Hashable {
  /// Stable across restarts: see `PhotoID`.
  public let id: String
  /// The path under the folder, "/"-separated.
  public let relativePath: String
  public let format: ImageFormat
  public let width: Int
  public let height: Int
  public let author: String?
  /// The file's size in bytes when it was indexed.
  public let size: Int64
}

/// The images of a folder at one scan, ordered by relative path (bytes of
/// its UTF-8, so the order does not depend on the locale).
public struct PhotoIndexSnapshot: Sendable {
  /// The folder, absolute.
  public let folder: String
  public let photos: [IndexedPhoto]
  /// Positions in `photos` by id.
  private let positions: [String: Int]
  /// When the scan that made it started.
  private(set) var taken: ContinuousClock.Instant
  /// What the scan did.
  public private(set) var report: PhotoScanReport

  /// The images among `records`, ordered by path: in the order of
  /// `sortedPaths` when given (the paths of `records` in byte order), else sorted here.
  init(
    folder: String, records: [String: PhotoFileRecord], sortedPaths: [String]? = nil,
    taken: ContinuousClock.Instant, report: PhotoScanReport
  ) {
    var images: [(path: String, size: Int64, header: ImageHeader)] = []
    images.reserveCapacity(records.count)
    if let sortedPaths, sortedPaths.count == records.count {
      for path in sortedPaths {
        if let record = records[path], case .image(let header) = record.outcome {
          images.append((path, record.size, header))
        }
      }
    } else {
      for (path, record) in records {
        if case .image(let header) = record.outcome { images.append((path, record.size, header)) }
      }
      images.sort { Self.precedes($0.path, $1.path) }
    }
    var photos: [IndexedPhoto] = []
    photos.reserveCapacity(images.count)
    var positions: [String: Int] = [:]
    positions.reserveCapacity(images.count)
    for image in images {
      // Two paths of one hash (about one chance in 10^9 for 100,000 files):
      // the later one in path order hashes its path with a suffix.
      var id = PhotoID.make(image.path)
      var attempt = 1
      while positions[id] != nil {
        id = PhotoID.make(image.path + "\u{0}\(attempt)")
        attempt += 1
      }
      positions[id] = photos.count
      photos.append(
        IndexedPhoto(
          id: id, relativePath: image.path, format: image.header.format,
          width: image.header.width, height: image.header.height, author: image.header.author,
          size: image.size))
    }
    self.folder = folder
    self.photos = photos
    self.positions = positions
    self.taken = taken
    self.report = report
  }

  /// Whether `a` comes before `b` in the byte order of their UTF-8.
  static func precedes(_ a: String, _ b: String) -> Bool {
    var (a, b) = (a, b)
    return a.withUTF8 { a in
      b.withUTF8 { b in
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
          let order = memcmp(left, right, common)
          if order != 0 { return order < 0 }
        }
        return a.count < b.count
      }
    }
  }

  /// The same photos, as found by a later scan that changed nothing.
  func renewed(taken: ContinuousClock.Instant, report: PhotoScanReport) -> PhotoIndexSnapshot {
    var renewed = self
    renewed.taken = taken
    renewed.report = report
    return renewed
  }

  public func photo(id: String) -> IndexedPhoto? {
    positions[id].map { photos[$0] }
  }
}

/// What one scan of the folder did, for logs and benchmarks.
public struct PhotoScanReport: Sendable, Hashable {
  /// Regular files found (images and others).
  public var files = 0
  /// Files whose header was read (new or changed since the cache).
  public var read = 0
  /// Files skipped: not images, broken, unreadable.
  public var skipped = 0
  /// Records dropped because their file is gone.
  public var removed = 0
  /// Seconds the scan took, cache load and save included.
  public var seconds = 0.0
}
