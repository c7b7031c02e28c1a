import Glibc
import Synchronization

/// Photos from a folder of image files (JPEG, PNG, GIF, WebP, found
/// recursively), ordered by relative path, through a `PhotoIndex`.
///
/// The folder is scanned on the first call, not at start. Asking for page 1
/// scans again when the last scan is more than `firstPageMaxAge` old (pull to
/// refresh sees new files); later pages reuse a scan up to `laterPageMaxAge`
/// old, so paging through stays consistent.
///
/// The default folder (`<data-dir>/photos`, used when none is configured) is
/// filled with `SamplePhotos` the first time it is found missing.
///
/// A live feed follows the folder (`events()`, `list(after:limit:)`): from
/// the first call the folder is watched and the index kept in step, and
/// every page and image is taken from it, with no scan.
public final class FolderPhotoBackend: PhotoBackend {
  public var kind: String { "embedded" }

  static let service = "photos"

  public let index: PhotoIndex
  /// Whether a missing folder gets the sample photos.
  private let populatesSamples: Bool
  private let firstPageMaxAge: Duration
  private let laterPageMaxAge: Duration
  private let log: PhotoLog
  /// The writing of the samples, started by the first call when it is due.
  private let samples = Mutex<SharedTask<Void>?>(nil)
  /// The index followed live, from the first call of `events()` or `list(after:limit:)`.
  let live: LivePhotoIndex

  /// How long a scan's result serves while the folder is followed live: for
  /// ever, since every change is applied to it.
  private static let anyAge = Duration.seconds(Int64.max)

  /// - Parameters:
  ///   - folder: the folder of images.
  ///   - databasePath: the index cache (`<data-dir>/photos.sqlite`); nil for none.
  ///   - populatesSamples: write the sample photos into `folder` if it does not exist.
  ///   - watchCoalescing: how long changes are gathered into one batch while watching.
  public init(
    folder: String, databasePath: String?, populatesSamples: Bool = false,
    firstPageMaxAge: Duration = .seconds(2), laterPageMaxAge: Duration = .seconds(300),
    watchCoalescing: Duration = .milliseconds(30), log: @escaping PhotoLog = { _, _, _ in }
  ) {
    index = PhotoIndex(folder: folder, databasePath: databasePath, log: log)
    live = LivePhotoIndex(index: index, log: log, coalescing: watchCoalescing)
    self.populatesSamples = populatesSamples
    self.firstPageMaxAge = firstPageMaxAge
    self.laterPageMaxAge = laterPageMaxAge
    self.log = log
  }

  public func list(page: Int, limit: Int) async throws -> PhotoPage {
    let snapshot = try await snapshot(maxAge: page == 1 ? firstPageMaxAge : laterPageMaxAge)
    let photos = snapshot.photos
    let (start, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
    guard !overflow, start < photos.count else {
      return PhotoPage(items: [], page: page, nextPage: nil)
    }
    let end = min(start + limit, photos.count)
    let items = photos[start..<end].map { Self.photo($0, folder: snapshot.folder) }
    return PhotoPage(items: items, page: page, nextPage: end < photos.count ? page + 1 : nil)
  }

  public func image(id: String) async throws -> ImageFile {
    guard PhotoID.isWellFormed(id) else { throw NotFound(resource: "photo", id: id) }
    var snapshot = try await snapshot(maxAge: laterPageMaxAge)
    if snapshot.photo(id: id) == nil {
      // A file added since the last scan: look again, unless that scan is recent.
      snapshot = try await self.snapshot(maxAge: firstPageMaxAge)
    }
    guard let photo = snapshot.photo(id: id) else { throw NotFound(resource: "photo", id: id) }
    let path = snapshot.folder + "/" + photo.relativePath
    guard let status = PhotoFiles.status(path), status.st_mode & S_IFMT == S_IFREG else {
      throw NotFound(resource: "photo", id: id)
    }
    return ImageFile(path: path, format: photo.format, bytes: Int(status.st_size), cached: true)
  }

  /// Whether `url` is the `file:` URL of a photo of the folder: the URL
  /// `photos/list` gives it (its path decoded), looked up by the id of its
  /// relative path, so that a path outside the folder or with `..` never is.
  public func handedOut(imageURL url: ImageURL) async throws -> Bool {
    let prefix = index.folder + "/"
    // Byte-wise: String's hasPrefix would take canonically equivalent paths
    // for the same. Checked first, so that another service's file (a
    // product's picture) never scans the folder.
    guard url.scheme == .file, let path = url.path, path.utf8.starts(with: prefix.utf8) else {
      return false
    }
    let relative = String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    func isListed(_ snapshot: PhotoIndexSnapshot) -> Bool {
      guard let photo = snapshot.photo(id: PhotoID.make(relative)) else { return false }
      return photo.relativePath.utf8.elementsEqual(relative.utf8)
    }
    if isListed(try await snapshot(maxAge: laterPageMaxAge)) { return true }
    // A file added since the last scan: look again, unless that scan is recent.
    return isListed(try await self.snapshot(maxAge: firstPageMaxAge))
  }

  /// Starts following the folder live, if not yet (and scans it), and gives
  /// a stream of its changes from now on: every caller gets its own. The
  /// stream finishes when the backend is deinitialized; the caller leaves by
  /// no longer iterating.
  public func events() -> AsyncStream<PhotoFolderEvent> {
    let events = live.subscribe()
    _ = startWatching()
    return events
  }

  /// A page of a live feed: the photos after `relativePath` (nil: from the
  /// start) in path order (`PathOrder`), at most `limit`, each with its
  /// relative path, and whether the folder has no more. Starts following the
  /// folder live, if not yet, and reads the live index; where the folder
  /// cannot be watched, the index scanned as for `list(page:limit:)`.
  /// - Throws: `UpstreamFailure` when the folder cannot be read, `CancellationError`.
  public func list(
    after relativePath: String?, limit: Int
  ) async throws -> (items: [(photo: Photo, relativePath: String)], endReached: Bool) {
    do {
      try await startWatching().value()
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      // Not watched (logged): scanned as photos/list is, below.
    }
    let snapshot = try await snapshot(
      maxAge: relativePath == nil ? firstPageMaxAge : laterPageMaxAge)
    let photos = snapshot.photos
    let start = snapshot.position(after: relativePath)
    let end = start + min(max(0, limit), photos.count - start)
    let items = photos[start..<end].map {
      (photo: Self.photo($0, folder: snapshot.folder), relativePath: $0.relativePath)
    }
    return (items, end == photos.count)
  }

  /// Whether the folder is followed live now: pages and images then come
  /// from the live index.
  public var isLive: Bool { live.isLive }

  /// Folders watched now (0 when not following the folder), for figures.
  public var watchedFolders: Int { live.watchedFolders }

  private func startWatching() -> SharedTask<Void> {
    live.start { [weak self] in
      guard let self, self.populatesSamples else { return }
      try await self.populateOnce().value()
    }
  }

  /// The index's snapshot, the samples written first when they are due; any
  /// age while the folder is followed live.
  private func snapshot(maxAge: Duration) async throws -> PhotoIndexSnapshot {
    do {
      if populatesSamples {
        try await populateOnce().value()
      }
      return try await index.snapshot(maxAge: live.isLive ? Self.anyAge : maxAge)
    } catch let error as PhotoFolderError {
      throw UpstreamFailure.unavailable(service: Self.service, reason: error.description)
    }
  }

  /// The writing of the samples into the folder if it is missing: started
  /// by the first caller, shared by the others, tried again after a failure.
  private func populateOnce() -> SharedTask<Void> {
    samples.withLock { task in
      if let task, !task.hasFailed { return task }
      let (folder, log) = (index.folder, log)
      let made = SharedTask {
        try await PhotoIndex.onOwnThread { () throws(PhotoFolderError) in
          if try SamplePhotos.populate(folder) {
            log(
              .info, "sample photos written",
              ["folder": folder, "count": String(SamplePhotos.count)])
          }
        }
      }
      task = made
      return made
    }
  }

  /// The wire value of `photo` of `folder`, for `photos/list` and live feeds alike.
  static func photo(_ photo: IndexedPhoto, folder: String) -> Photo {
    Photo(
      id: photo.id, author: photo.author, width: photo.width, height: photo.height,
      url: Self.fileURL(folder + "/" + photo.relativePath), source: .folder,
      bytes: Int(photo.size))
  }

  /// `file://` and the absolute path, each byte but the unreserved characters
  /// and "/" percent-encoded (RFC 8089, RFC 3986).
  static func fileURL(_ path: String) -> String {
    let hexDigits = Array("0123456789ABCDEF".utf8)
    var encoded = Array("file://".utf8)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.append(byte)
      default:
        encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }
}
