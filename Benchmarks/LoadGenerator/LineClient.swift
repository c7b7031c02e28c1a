import Glibc
import Services

/// A minimal NDJSON client for request/reply benchmarks: one request at a
/// time, replies read as lines; notifications are skipped.
final class LineClient {
  let process: DaemonProcess
  private var buffer: [UInt8] = []
  /// Where the next line starts in `buffer`: lines are taken without moving
  /// the rest, so a burst of a thousand notifications is read in linear time.
  private var start = 0
  /// Reused by every read, so that no round trip pays for a fresh 64 KB.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  private var nextID = 1
  /// Notifications skipped by `call` so far.
  private(set) var notificationsSkipped = 0

  init(binary: String, arguments: [String]) throws {
    process = try DaemonProcess(executable: binary, arguments: arguments)
  }

  /// Sends `{"jsonrpc":"2.0","id":N,"method":` + `methodAndParams` + `}`.
  func send(_ methodAndParams: String) throws {
    let line = #"{"jsonrpc":"2.0","id":\#(nextID),"method":\#(methodAndParams)}"# + "\n"
    nextID += 1
    try Array(line.utf8).withUnsafeBytes { try writeAll(process.input, $0) }
  }

  /// Sends one request and returns its reply line. Notifications are
  /// skipped as bytes: under writes many arrive between a request and its
  /// reply, and making a string of each would count in the round trip.
  func call(_ methodAndParams: String) throws -> String {
    try send(methodAndParams)
    while true {
      let reply: String? = try withNextLine { line in
        Self.isNotification(line) ? nil : String(decoding: line, as: UTF8.self)
      }
      if let reply { return reply }
      notificationsSkipped += 1
    }
  }

  /// Sends one request and returns the nanoseconds until its reply arrived;
  /// throws if the reply is an error, saying what was asked (`what`). The reply
  /// is looked at as bytes and only after the clock is read: a string of a
  /// places page is microseconds of the client's own work.
  func timedCall(_ methodAndParams: String, _ what: String) throws -> UInt64 {
    let started = monotonicNanoseconds()
    try send(methodAndParams)
    while true {
      let outcome: (elapsed: UInt64, failure: String?)? = try withNextLine { line in
        if Self.isNotification(line) { return nil }
        let elapsed = monotonicNanoseconds() - started
        guard isErrorReply(UnsafeRawBufferPointer(line)) else { return (elapsed, nil) }
        return (elapsed, "\(what): " + String(decoding: line.prefix(300), as: UTF8.self))
      }
      guard let outcome else {
        notificationsSkipped += 1
        continue
      }
      if let failure = outcome.failure { throw BenchError.wrongReplies(failure) }
      return outcome.elapsed
    }
  }

  /// Reads `count` replies (any order), skipping notifications, without
  /// keeping them: for throughput, where the client must not be the bottleneck.
  /// Throws at an error reply.
  func skipReplies(_ count: Int) throws {
    var replies = 0
    while replies < count {
      let failure: String? = try withNextLine { line in
        if Self.isNotification(line) { return nil }
        replies += 1
        guard isErrorReply(UnsafeRawBufferPointer(line)) else { return nil }
        return String(decoding: line.prefix(300), as: UTF8.self)
      }
      if let failure { throw BenchError.wrongReplies(failure) }
    }
  }

  private static func isNotification(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    occurs(#"{"jsonrpc":"2.0","method""#, in: UnsafeRawBufferPointer(line), at: 0)
  }

  /// Reads `count` replies (any order), skipping notifications; throws at an error reply.
  func readReplies(_ count: Int) throws -> [String] {
    var replies: [String] = []
    replies.reserveCapacity(count)
    while replies.count < count {
      let reply: String? = try withNextLine { line in
        Self.isNotification(line) ? nil : String(decoding: line, as: UTF8.self)
      }
      guard let reply else { continue }
      try expectResult(reply)
      replies.append(reply)
    }
    return replies
  }

  func close() throws {
    _ = try call(#""shutdown""#)
    try send(#""exit""#)
    process.closeInput()
    _ = try process.wait()
  }

  /// The next line the daemon wrote (notifications included), without its newline.
  func readLine() throws -> String {
    try withNextLine { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the next line's bytes (valid only inside it), without
  /// its newline: a burst of notifications is looked at without a string each.
  func withNextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result
  {
    while true {
      let newline: Int? = buffer.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress, start < bytes.count,
          let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      }
      if let newline {
        let lineStart = start
        start = newline + 1
        return try buffer.withUnsafeBufferPointer {
          try body(UnsafeBufferPointer(rebasing: $0[lineStart..<newline]))
        }
      }
      if start > 0 {
        buffer.removeSubrange(..<start)
        start = 0
      }
      let count = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
      guard count > 0 else { throw BenchError.daemonClosedOutput(answered: 0, expected: 1) }
      buffer.append(contentsOf: chunk[0..<count])
    }
  }
}

/// Whether a reply line is an error. Searched as bytes: the standard
/// library's string search walks characters, and under writes it took more
/// of the machine than the daemon being measured.
func isErrorReply(_ line: UnsafeRawBufferPointer) -> Bool {
  firstIndex(of: #""error":"#, in: line) != nil
}

/// Throws unless `reply` is a result, saying what it answered (`what`).
func expectResult(_ reply: String, _ what: String = "") throws {
  var reply = reply
  if reply.withUTF8({ isErrorReply(UnsafeRawBufferPointer($0)) }) {
    throw BenchError.wrongReplies((what.isEmpty ? "" : "\(what): ") + String(reply.prefix(300)))
  }
}

/// The string value of `"name":"…"` in a reply (the values looked for hold no escapes).
func stringField(_ name: String, in reply: String) throws -> String {
  guard let start = reply.firstRange(of: "\"\(name)\":\"") else {
    throw BenchError.wrongReplies("no \(name) in \(reply.prefix(300))")
  }
  let rest = reply[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else {
    throw BenchError.wrongReplies("unterminated \(name)")
  }
  return String(rest[..<end])
}
