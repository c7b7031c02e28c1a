/// The images of a folder at one scan, ordered by relative path (`PathOrder`),
/// brought up to date by the batches of changes applied since.
public struct PhotoIndexSnapshot: Sendable {
  /// The folder, absolute.
  public let folder: String
  public private(set) var photos: [IndexedPhoto]
  /// The relative path of each photo, by the hash its id spells: a photo is
  /// then found by binary search in `photos`, so that inserting one does not
  /// move the others' entries.
  private var paths: [UInt64: String]
  /// Photos whose id is not the hash of their path (two paths of one hash):
  /// while there are any, a change may renumber others, and `applying` declines.
  private var collisions: Int
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
    var paths: [UInt64: String] = [:]
    paths.reserveCapacity(files.count)
    var collisions = 0
    for (path, record) in files {
      guard case .image(let header) = record.outcome else { continue }
      // Two paths of one hash (about one chance in 10^9 for 100,000 files):
      // the later one in path order hashes its path with a suffix.
      var hash = PhotoID.hash(path)
      var attempt = 1
      while paths[hash] != nil {
        hash = PhotoID.hash(path + "\u{0}\(attempt)")
        attempt += 1
      }
      if attempt > 1 { collisions += 1 }
      paths[hash] = path
      photos.append(IndexedPhoto(path: path, hash: hash, header: header, size: record.size))
    }
    self.folder = folder
    self.photos = photos
    self.paths = paths
    self.collisions = collisions
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

  /// Takes out the photos at `removing` and puts in `inserting` (images
  /// with their path and size), both in `PathOrder`; each path of
  /// `inserting` is one of `removing` or has no photo here. False, and
  /// nothing changed, when a hash would be shared: then ids depend on the
  /// order of every path, and only a snapshot made from all the records
  /// gives the ones a scan would.
  mutating func apply(
    removing: [String], inserting: [(path: String, header: ImageHeader, size: Int64)]
  ) -> Bool {
    guard collisions == 0 else { return false }
    var freed: Set<UInt64> = []
    for path in removing {
      let hash = PhotoID.hash(path)
      if let listed = paths[hash], PathOrder.compare(listed, path) == 0 { freed.insert(hash) }
    }
    var taken: Set<UInt64> = []
    for (path, _, _) in inserting {
      let hash = PhotoID.hash(path)
      guard taken.insert(hash).inserted, paths[hash] == nil || freed.contains(hash) else {
        return false
      }
    }
    for hash in freed { paths[hash] = nil }
    for (path, _, _) in inserting { paths[PhotoID.hash(path)] = path }
    let added = inserting.map { path, header, size in
      IndexedPhoto(path: path, hash: PhotoID.hash(path), header: header, size: size)
    }
    PathOrder.update(&photos, removing: removing, inserting: added, path: \.relativePath)
    return true
  }

  public func photo(id: String) -> IndexedPhoto? {
    guard let hash = PhotoID.value(id), let path = paths[hash] else { return nil }
    return photo(at: path)
  }

  /// The photo at `relativePath`, if there is one.
  func photo(at relativePath: String) -> IndexedPhoto? {
    let position = PathOrder.firstPosition(
      in: photos, notBefore: relativePath, path: \.relativePath)
    guard position < photos.count,
      PathOrder.compare(photos[position].relativePath, relativePath) == 0
    else { return nil }
    return photos[position]
  }

  /// The position in `photos` of the first photo whose path comes after
  /// `relativePath` (0 for nil): where a page that follows it starts.
  public func position(after relativePath: String?) -> Int {
    guard let relativePath else { return 0 }
    return PathOrder.firstPosition(
      in: photos, notBefore: relativePath, after: true, path: \.relativePath)
  }
}

extension IndexedPhoto {
  /// The photo of the image at `path`, whose id spells `hash`.
  fileprivate init(path: String, hash: UInt64, header: ImageHeader, size: Int64) {
    self.init(
      id: PhotoID.text(hash), relativePath: path, format: header.format, width: header.width,
      height: header.height, author: header.author, size: size)
  }
}
