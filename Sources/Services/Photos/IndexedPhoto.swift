/// One image of the folder as the index lists it.
public struct IndexedPhoto: Sendable, Hashable {
  /// Stable across restarts: see `PhotoID`. Made once per photo, so that
  /// every page and feed holding the photo shares it.
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

/// The images of a folder at one scan, ordered by relative path (`PathOrder`).
public struct PhotoIndexSnapshot: Sendable {
  /// The folder, absolute.
  public let folder: String
  public let photos: [IndexedPhoto]
  /// Positions in `photos` by the hash of their id.
  private let positions: [UInt64: Int]
  /// When the scan that made it started.
  private(set) var taken: ContinuousClock.Instant
  /// What the scan did.
  public private(set) var report: PhotoScanReport

  /// The images among `files` (in `PathOrder` of their paths), in that order.
  init(
    folder: String, files: [(path: String, record: PhotoFileRecord)],
    taken: ContinuousClock.Instant, report: PhotoScanReport
  ) {
    var photos: [IndexedPhoto] = []
    photos.reserveCapacity(files.count)
    var positions: [UInt64: Int] = [:]
    positions.reserveCapacity(files.count)
    for (path, record) in files {
      guard case .image(let header) = record.outcome else { continue }
      // Two paths of one hash (about one chance in 10^9 for 100,000 files):
      // the later one in path order hashes its path with a suffix.
      var hash = PhotoID.hash(path)
      var attempt = 1
      while positions[hash] != nil {
        hash = PhotoID.hash(path + "\u{0}\(attempt)")
        attempt += 1
      }
      positions[hash] = photos.count
      photos.append(
        IndexedPhoto(
          id: PhotoID.text(hash), relativePath: path, format: header.format, width: header.width,
          height: header.height, author: header.author, size: record.size))
    }
    self.folder = folder
    self.photos = photos
    self.positions = positions
    self.taken = taken
    self.report = report
  }

  /// The same photos, as found by a later scan that changed nothing.
  func renewed(taken: ContinuousClock.Instant, report: PhotoScanReport) -> PhotoIndexSnapshot {
    var renewed = self
    renewed.taken = taken
    renewed.report = report
    return renewed
  }

  public func photo(id: String) -> IndexedPhoto? {
    PhotoID.value(id).flatMap { positions[$0] }.map { photos[$0] }
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
