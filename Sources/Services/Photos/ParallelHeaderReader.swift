/// Reads the headers of many files on a few threads at once: each file costs
/// an `open`, a `pread` and a `close`, mostly waiting for the disk, so several
/// requests in flight read a cold folder faster than one at a time.
enum ParallelHeaderReader {
  /// Threads reading at once. Each mostly waits for the disk, and a disk
  /// serves many requests in flight faster than few: 16 at once read a cold
  /// folder faster than 4 (figures in Benchmarks/README.md).
  static let threads = 16
  /// Below this many files, the calling thread reads them alone.
  static let minimumForThreads = 256

  /// The header of each file of `paths`, in the same order.
  static func read(_ paths: [String]) -> [Result<ImageHeader, ImageHeaderError>] {
    guard paths.count >= minimumForThreads else { return paths.map(readOne) }
    return ParallelMap.map(paths.count, threads: threads) { readOne(paths[$0]) }
  }

  private static func readOne(_ path: String) -> Result<ImageHeader, ImageHeaderError> {
    Result { () throws(ImageHeaderError) in try ImageHeader.read(path: path) }
  }
}
