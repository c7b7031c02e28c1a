import Glibc

/// Downloaded images on disk, keyed by their URL, at most `limitBytes` of
/// them: when a new file takes the total over the limit, the least recently
/// used files go first. One per daemon, shared by `photos/image` and
/// `images/get` and by every session of a shared daemon.
///
/// Each file is written under a temporary name and renamed into place, so a
/// reader never sees half of one, and a failed download writes nothing.
/// Requests for an image that is being downloaded wait for that download
/// instead of starting another. "Recently used" survives restarts through
/// the files' modification times, which a hit refreshes.
///
/// A returned path stays valid until the cache evicts the file: a client
/// should read it soon. Downloads are capped at `maxDownloadBytes` (never
/// more than the limit), so the files on disk stay within the limit.
public actor ImageCache {
  /// A file of the cache.
  private struct Entry {
    let fileName: String
    let format: ImageFormat
    let size: Int
    /// Larger is more recent.
    var lastUsed: UInt64
  }

  /// What a download gives.
  public struct Download: Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat

    public init(bytes: [UInt8], format: ImageFormat) {
      self.bytes = bytes
      self.format = format
    }
  }

  /// The largest image downloaded, whatever the limit: a photo at full
  /// resolution is a few MiB, and a body held in memory must stay small.
  public static let maxImageBytes = 32 << 20

  public nonisolated let directory: String
  public nonisolated let limitBytes: Int
  /// The folder an older version kept its cache in, adopted at the first call.
  private let formerDirectory: String?
  /// The files by key, read from the directory at the first call.
  private var entries: [String: Entry]?
  /// The sum of the entries' sizes.
  private var totalBytes = 0
  /// Gives each use its order.
  private var useCounter: UInt64 = 0
  /// Downloads under way, by key, each with its number.
  private var downloads: [String: (number: UInt64, task: SharedTask<ImageFile>)] = [:]
  /// Numbers the downloads, so that one that ended never forgets a newer one.
  private var downloadCounter: UInt64 = 0
  /// Temporary files older than this are leftovers of a crash.
  static let staleTemporarySeconds = 3_600

  /// - Parameters:
  ///   - directory: where the files are kept (`<data-dir>/image-cache`).
  ///   - limitBytes: the most the files take together.
  ///   - formerDirectory: a folder an older version kept the cache in
  ///     (`<data-dir>/photo-cache`): renamed to `directory` when that does not
  ///     exist yet, so its files count against the limit and age out.
  public init(directory: String, limitBytes: Int, formerDirectory: String? = nil) {
    self.directory = directory
    self.limitBytes = max(limitBytes, 0)
    self.formerDirectory = formerDirectory
  }

  /// The largest body a download may have: an image that could not stay in
  /// the cache is refused rather than pushing out everything else.
  public nonisolated var maxDownloadBytes: Int { min(Self.maxImageBytes, limitBytes) }

  /// The bytes the cache holds now.
  public var size: Int {
    loadIfNeeded()
    return totalBytes
  }

  /// The image of `key` (its URL) from the cache, or from `download` (once,
  /// however many callers ask meanwhile), stored before it is returned.
  /// - Throws: what `download` throws; `PhotoFolderError` when the file
  ///   cannot be written (nothing of it is left then).
  public func image(
    key: String, download: @escaping @Sendable () async throws -> Download
  ) async throws -> ImageFile {
    loadIfNeeded()
    let stem = PhotoID.make(key)
    if let hit = hit(stem) { return hit }
    if let running = downloads[stem], !running.task.isFinished {
      return try await running.task.value()
    }
    downloadCounter += 1
    let number = downloadCounter
    let directory = directory
    let task = SharedTask { [self] in
      defer { Task { await self.downloadEnded(stem, number) } }
      let downloaded = try await download()
      let fileName = stem + "." + downloaded.format.fileExtension
      try await PhotoIndex.onOwnThread { () throws(PhotoFolderError) in
        try Self.store(downloaded.bytes, in: directory, as: fileName)
      }
      return await self.stored(stem, fileName, downloaded)
    }
    downloads[stem] = (number, task)
    return try await task.value()
  }

  /// The cached file of `stem`, marked used; nil when there is none (or it
  /// was removed behind the cache's back).
  private func hit(_ stem: String) -> ImageFile? {
    guard var entry = entries?[stem] else { return nil }
    let path = directory + "/" + entry.fileName
    // Touch it, so that the order of use survives a restart.
    guard utimensat(AT_FDCWD, path, nil, 0) == 0 else {
      forget(stem)
      return nil
    }
    useCounter += 1
    entry.lastUsed = useCounter
    entries?[stem] = entry
    return ImageFile(path: path, format: entry.format, bytes: entry.size, cached: true)
  }

  private func stored(_ stem: String, _ fileName: String, _ download: Download) -> ImageFile {
    forget(stem)
    useCounter += 1
    entries?[stem] = Entry(
      fileName: fileName, format: download.format, size: download.bytes.count,
      lastUsed: useCounter)
    totalBytes += download.bytes.count
    evict(keeping: stem)
    return ImageFile(
      path: directory + "/" + fileName, format: download.format, bytes: download.bytes.count,
      cached: false)
  }

  private func downloadEnded(_ stem: String, _ number: UInt64) {
    if downloads[stem]?.number == number { downloads[stem] = nil }
  }

  private func forget(_ stem: String) {
    if let old = entries?.removeValue(forKey: stem) { totalBytes -= old.size }
  }

  /// Removes the least recently used files until the total is within the
  /// limit, never `kept` (the file just stored).
  private func evict(keeping kept: String?) {
    while totalBytes > limitBytes, let entries, !entries.isEmpty {
      guard
        let (stem, entry) = entries.filter({ $0.key != kept }).min(by: {
          $0.value.lastUsed < $1.value.lastUsed
        })
      else { return }
      unlink(directory + "/" + entry.fileName)
      forget(stem)
    }
  }

  /// Writes `bytes` to `fileName` in `directory` (created if missing): into a
  /// temporary file first, renamed into place when complete; on failure
  /// nothing is left.
  static func store(_ bytes: [UInt8], in directory: String, as fileName: String)
    throws(PhotoFolderError)
  {
    try PhotoFiles.makeDirectories(directory)
    let temporary =
      directory + "/.tmp-\(fileName)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try PhotoFiles.write(bytes, to: temporary)
    guard rename(temporary, directory + "/" + fileName) == 0 else {
      let failure = errno
      unlink(temporary)
      throw .cannotWrite(path: directory + "/" + fileName, errno: failure)
    }
  }

  /// Reads the directory once: each image file becomes an entry, ordered by
  /// modification time; old temporary files are removed.
  private func loadIfNeeded() {
    guard entries == nil else { return }
    if let formerDirectory, PhotoFiles.status(directory) == nil {
      rename(formerDirectory, directory)
    }
    var found: [(stem: String, entry: Entry, modified: Int64)] = []
    let now = Int64(time(nil))
    if let directoryStream = opendir(directory) {
      defer { closedir(directoryStream) }
      while let item = readdir(directoryStream) {
        let name = withUnsafePointer(to: &item.pointee.d_name) { tuple in
          tuple.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        guard let status = PhotoFiles.status(directory + "/" + name),
          status.st_mode & S_IFMT == S_IFREG
        else { continue }
        if name.hasPrefix(".tmp-") {
          if now - Int64(status.st_mtim.tv_sec) > Self.staleTemporarySeconds {
            unlink(directory + "/" + name)
          }
          continue
        }
        let parts = name.split(separator: ".")
        guard parts.count == 2, PhotoID.isWellFormed(String(parts[0])),
          let format = ImageFormat.allCases.first(where: { $0.fileExtension == parts[1] })
        else { continue }
        let modified = PhotoFiles.modifiedNanoseconds(status)
        found.append(
          (
            String(parts[0]),
            Entry(fileName: name, format: format, size: Int(status.st_size), lastUsed: 0),
            modified
          ))
      }
    }
    found.sort { $0.modified < $1.modified }
    var entries: [String: Entry] = [:]
    for item in found {
      useCounter += 1
      var entry = item.entry
      entry.lastUsed = useCounter
      entries[item.stem] = entry
      totalBytes += entry.size
    }
    self.entries = entries
    // The limit may be lower than the last run's.
    evict(keeping: nil)
  }
}
