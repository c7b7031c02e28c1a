#if canImport(Glibc)
  import Glibc
#endif

/// Gives back the pages of the binary's and the libraries' files that
/// starting up touched (Linux-only: it reads `/proc/self/smaps`). A waiting
/// forwarder runs almost nothing for the rest of its life, but its start
/// maps megabytes of code and read-only data of the binary and the Swift
/// and C libraries, pages the shared daemon keeps in the page cache; they
/// would count in every forwarder's resident set. Dropping them costs a
/// page fault for each page used again.
///
/// Only file mappings that are not writable and hold no page of the
/// process's own are dropped (`Anonymous: 0 kB`: no page was copied on
/// write, as the loader's relocations copy them): what such a mapping holds
/// is exactly the file's content, which a later fault reads back. Nothing of
/// the process's own is lost.
enum ResidentCode {
  static func release() {
    let ranges = cleanFileMappings()
    // Nothing but these calls from here on: code run between them would
    // fault back the pages just dropped.
    for range in ranges {
      guard let address = UnsafeMutableRawPointer(bitPattern: range.start) else { continue }
      _ = madvise(address, Int(range.end - range.start), MADV_DONTNEED)
    }
  }

  /// The read-only file mappings that hold no page of the process's own.
  private static func cleanFileMappings() -> [(start: UInt, end: UInt)] {
    let fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return [] }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      text += chunk[0..<count]
    }
    close(fd)
    var ranges: [(start: UInt, end: UInt)] = []
    var candidate: (start: UInt, end: UInt)?
    for line in text.split(separator: UInt8(ascii: "\n")) {
      let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
      if let range = fields.first, let dash = range.firstIndex(of: UInt8(ascii: "-")) {
        // A mapping's first line: "start-end perms offset dev inode path".
        candidate = nil
        guard fields.count >= 6,
          fields[1].elementsEqual("r-xp".utf8) || fields[1].elementsEqual("r--p".utf8),
          fields[5].first == UInt8(ascii: "/"),
          let start = UInt(String(decoding: range[..<dash], as: UTF8.self), radix: 16),
          let end = UInt(String(decoding: range[(dash + 1)...], as: UTF8.self), radix: 16),
          end > start
        else { continue }
        candidate = (start, end)
      } else if let mapping = candidate, fields.count >= 2,
        fields[0].elementsEqual("Anonymous:".utf8)
      {
        candidate = nil
        if fields[1].elementsEqual("0".utf8) { ranges.append(mapping) }
      }
    }
    return ranges
  }
}
