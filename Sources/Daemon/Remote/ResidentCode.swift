#if canImport(Glibc)
  import Glibc
#endif

/// Gives back the pages of machine code that starting up touched (Linux-only:
/// it reads `/proc/self/maps`). A forwarder runs a few small loops for the
/// rest of its life, but its start maps megabytes of the binary's and the C
/// libraries' code, pages the shared daemon keeps in the page cache; they
/// would count in every forwarder's resident set. Dropping them costs a
/// page fault for each page used again. Only executable file mappings are
/// dropped: code is never written, so nothing of the process's own is lost
/// (a writable or relocated mapping would lose its changes).
enum ResidentCode {
  static func release() {
    let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      text += chunk[0..<count]
    }
    close(fd)
    for line in text.split(separator: UInt8(ascii: "\n")) {
      // "start-end perms offset dev inode path"
      let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1].elementsEqual("r-xp".utf8),
        fields[5].first == UInt8(ascii: "/"),
        let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
        let start = UInt(String(decoding: fields[0][..<dash], as: UTF8.self), radix: 16),
        let end = UInt(String(decoding: fields[0][(dash + 1)...], as: UTF8.self), radix: 16),
        end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
      else { continue }
      _ = madvise(address, Int(end - start), MADV_DONTNEED)
    }
  }
}
