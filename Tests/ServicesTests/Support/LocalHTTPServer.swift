import Glibc
import Synchronization

@testable import Services

/// A tiny HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests: it answers
/// each path with canned replies, can stall or hang up, and records every request.
///
/// One thread accepts; each connection gets a thread of its own, so a stalled
/// reply never holds up another request. Every reply closes its connection.
final class LocalHTTPServer: Sendable {
  struct Reply: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType: String = "application/json"
    /// How long to wait before answering (or hanging up).
    var delay: Duration = .zero
    /// Close the connection without answering.
    var hangsUp = false
    /// Without it the body ends when the connection closes.
    var sendsContentLength = true

    static func json(_ text: String, status: Int = 200, delay: Duration = .zero) -> Reply {
      Reply(status: status, body: Array(text.utf8), delay: delay)
    }

    static func hangUp(after delay: Duration = .zero) -> Reply {
      Reply(status: 0, body: [], delay: delay, hangsUp: true)
    }
  }

  struct Request: Sendable {
    let method: String
    /// The request target as sent: path and encoded query.
    let target: String
    /// Header values by lowercased name.
    let headers: [String: String]
    let body: [UInt8]

    var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's names and values, percent-decoded.
    var query: [String: String] {
      guard let mark = target.firstIndex(of: "?") else { return [:] }
      var query: [String: String] = [:]
      for pair in target[target.index(after: mark)...].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[Self.percentDecoded(parts[0])] = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
      }
      return query
    }

    private static func percentDecoded(_ text: Substring) -> String {
      var bytes: [UInt8] = []
      var iterator = Array(text.utf8).makeIterator()
      while let byte = iterator.next() {
        if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
          let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
        {
          bytes.append(value)
        } else {
          bytes.append(byte)
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  private struct State {
    /// Replies by path; each request takes the first, and the last one repeats.
    var replies: [String: [Reply]]
    var requests: [Request] = []
    var isStopped = false
  }

  let port: Int
  private let listener: Int32
  private let state: Mutex<State>

  var baseURL: String { "http://127.0.0.1:\(port)" }
  var requests: [Request] { state.withLock { $0.requests } }

  init(_ replies: [String: [Reply]] = [:]) throws {
    let (listener, port) = try Self.bindLoopback(listening: true)
    self.listener = listener
    self.port = port
    self.state = Mutex(State(replies: replies))
    guard DedicatedThread.start({ [self] in acceptLoop() }) else {
      close(listener)
      throw SocketError(operation: "pthread_create")
    }
  }

  deinit { stop() }

  func setReplies(_ replies: [Reply], for path: String) {
    state.withLock { $0.replies[path] = replies }
  }

  func stop() {
    let wasStopped = state.withLock { state in
      defer { state.isStopped = true }
      return state.isStopped
    }
    guard !wasStopped else { return }
    // shutdown wakes the thread blocked in accept; close alone would not.
    // That thread closes the socket as it ends: closed here, its number
    // could go to the next test's server before the thread calls accept
    // again, which would then take that server's requests.
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// A loopback port nothing listens on: bound, then released.
  static func unusedPort() throws -> Int {
    let (socket, port) = try bindLoopback(listening: false)
    close(socket)
    return port
  }

  struct SocketError: Error, CustomStringConvertible {
    let operation: String
    let code = errno
    var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
  }

  private static func bindLoopback(listening: Bool) throws -> (socket: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketError(operation: "socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
      }
    }
    guard bound, !listening || listen(fd, 64) == 0 else {
      let error = SocketError(operation: "bind/listen")
      close(fd)
      throw error
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      if !DedicatedThread.start({ [self] in serve(connection) }) { close(connection) }
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let request = Self.readRequest(connection) else { return }
    let reply = state.withLock { state -> Reply? in
      state.requests.append(request)
      guard var replies = state.replies[request.path], let first = replies.first else { return nil }
      if replies.count > 1 { replies.removeFirst() }
      state.replies[request.path] = replies
      return first
    }
    let answer = reply ?? .json(#"{"statusMessage":"no such route"}"#, status: 404)
    if answer.delay > .zero {
      let (seconds, attoseconds) = answer.delay.components
      var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
      var remaining = timespec()
      while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }
    if answer.hangsUp { return }
    var head = "HTTP/1.1 \(answer.status) Canned\r\nContent-Type: \(answer.contentType)\r\n"
    if answer.sendsContentLength { head += "Content-Length: \(answer.body.count)\r\n" }
    head += "Connection: close\r\n\r\n"
    Self.sendAll(connection, Array(head.utf8) + answer.body)
  }

  private static func sendAll(_ connection: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      // MSG_NOSIGNAL: a client that already gave up must not kill the test run with SIGPIPE.
      let sent = bytes[offset...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent <= 0 { return }
      offset += sent
    }
  }

  private static func readRequest(_ connection: Int32) -> Request? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    func receive() -> Bool {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return false }
      bytes += buffer[..<count]
      return true
    }
    let separator = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      guard receive(), bytes.count < 1 << 20 else { return nil }
      headEnd = bytes.indices.dropLast(3).first { Array(bytes[$0..<$0 + 4]) == separator }
    }
    guard let headEnd else { return nil }
    let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\r\n")
    let requestLine = lines.first?.split(separator: " ") ?? []
    guard requestLine.count == 3 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      headers[line[..<colon].lowercased()] = String(value)
    }
    let bodyStart = headEnd + 4
    let bodyLength = headers["content-length"].flatMap { Int($0) } ?? 0
    while bytes.count < bodyStart + bodyLength {
      guard receive() else { return nil }
    }
    return Request(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      body: Array(bytes[bodyStart..<bodyStart + bodyLength]))
  }
}
