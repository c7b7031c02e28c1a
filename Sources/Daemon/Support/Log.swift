import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's log: one logfmt line per event on stderr (stdout is the
/// protocol's), with structured metadata such as `request.id` and
/// `rpc.method` kept out of the message text.
enum Log {
  /// The most verbose level written; set once at start, before other threads run.
  nonisolated(unsafe) static var level: LogLevel = .info

  static func error(_ message: String, _ metadata: [String: String] = [:]) {
    write(.error, message, metadata)
  }
  static func warn(_ message: String, _ metadata: [String: String] = [:]) {
    write(.warn, message, metadata)
  }
  static func info(_ message: String, _ metadata: [String: String] = [:]) {
    write(.info, message, metadata)
  }
  static func debug(_ message: String, _ metadata: [String: String] = [:]) {
    write(.debug, message, metadata)
  }

  static func isEnabled(_ level: LogLevel) -> Bool { level <= Self.level }

  static func write(_ level: LogLevel, _ message: String, _ metadata: [String: String]) {
    guard isEnabled(level) else { return }
    var line = "time=\(RFC3339.now()) level=\(level) msg=\(quoted(message))"
    for key in metadata.keys.sorted() {
      line += " \(key)=\(quoted(metadata[key] ?? ""))"
    }
    line += "\n"
    // One write(2) per line keeps lines whole when threads log at once.
    var bytes = Array(line.utf8)
    bytes.withUnsafeMutableBytes { _ = writeAll(2, UnsafeRawBufferPointer($0)) }
  }

  private static func quoted(_ value: String) -> String {
    let plain =
      !value.isEmpty
      && value.utf8.allSatisfy {
        $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 < 0x7F
      }
    if plain { return value }
    return String(decoding: JSON.string(value).serialized(), as: UTF8.self)
  }
}
