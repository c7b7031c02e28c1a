#if canImport(Glibc)
  import Glibc
#endif

/// `--trace FILE`: every message in and out, one line each: an RFC 3339
/// time, `<-` (from the client) or `->` (to the client), then the body as sent.
final class Tracer: Sendable {
  /// The open trace file; written with one write(2) per line so lines stay whole.
  private let fd: Int32

  init?(path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return nil }
    self.fd = fd
  }

  deinit { close(fd) }

  enum Direction: String {
    case incoming = "<-"
    case outgoing = "->"
  }

  func record(_ direction: Direction, _ body: UnsafeBufferPointer<UInt8>) {
    var line = Array("\(Timestamp.now()) \(direction.rawValue) ".utf8)
    line.append(contentsOf: body)
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { _ = writeAll(fd, $0) }
  }

  func record(_ direction: Direction, note: String) {
    Array("(\(note))".utf8).withUnsafeBufferPointer { record(direction, $0) }
  }
}
