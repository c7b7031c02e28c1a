import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `--trace FILE`: every message in and out, one line each: an RFC 3339
/// time, `<-` (from the client) or `->` (to the client), then the body as sent.
final class Tracer: Sendable {
  /// The open trace file; written with one write(2) per line so lines stay whole.
  private let fd: Int32

  init?(path: String) {
    guard let fd = Self.open(path) else { return nil }
    self.fd = fd
  }

  /// Traces into `fd`, an open trace file this tracer now owns (a forwarded
  /// session's, opened by its forwarder).
  init(fd: Int32) {
    self.fd = fd
  }

  /// Opens a trace file for appending, closed on exec.
  static func open(_ path: String) -> Int32? {
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    return fd >= 0 ? fd : nil
  }

  deinit { close(fd) }

  enum Direction: String {
    case incoming = "<-"
    case outgoing = "->"
  }

  /// Records one message on one line. Line breaks in a body can only be
  /// whitespace between JSON tokens, so they are written as spaces; bytes that
  /// are not UTF-8 (a client's garbage) become U+FFFD, so the trace stays text.
  func record(_ direction: Direction, _ body: UnsafeBufferPointer<UInt8>) {
    var line = Array("\(RFC3339.now()) \(direction.rawValue) ".utf8)
    let start = line.count
    if String(validating: body, as: UTF8.self) != nil {
      line.append(contentsOf: body)
    } else {
      line.append(contentsOf: String(decoding: body, as: UTF8.self).utf8)
    }
    for index in start..<line.count where line[index] == 0x0A || line[index] == 0x0D {
      line[index] = UInt8(ascii: " ")
    }
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { _ = writeAll(fd, $0) }
  }

  func record(_ direction: Direction, note: String) {
    Array("(\(note))".utf8).withUnsafeBufferPointer { record(direction, $0) }
  }
}

extension Tracer {
  /// The `--trace` file's tracer, if one is set and can be opened (a warning if not).
  static func of(_ configuration: Configuration) -> Tracer? {
    guard let path = configuration.tracePath else { return nil }
    let tracer = Tracer(path: path)
    if tracer == nil { Log.warn("cannot open the trace file", ["path": path]) }
    return tracer
  }
}
