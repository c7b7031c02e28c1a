import Protocol
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Carries one client's session between its stdio and a shared daemon's
/// socket, bytes unchanged (the daemon detects the framing as a daemon of
/// the client's own would), on two threads that each block in read(2) and
/// write(2): a side that stops reading slows the other down, nothing
/// buffers without bound.
///
/// On the way it reads each message's envelope (`Envelopes`) to know which
/// requests wait for a response. If the daemon closes the connection while
/// some do, each gets a -32020 error in the client's framing: the daemon
/// died, and a new one starts for the next forwarder.
final class Forwarder: Sendable {
  /// How a forwarded session ended.
  enum Outcome: Equatable, Sendable {
    /// The daemon closed the session after the client ended it (`exit`, or
    /// the end of its input), with the status a daemon of the client's own
    /// would have exited with.
    case finished(status: Int32)
    /// The daemon closed the connection first, for `reason`; `failed`
    /// waiting requests were answered with -32020.
    case daemonLost(reason: String, failed: Int)
    /// The client closed its end of stdout.
    case clientGone
  }

  /// What both pumps share.
  private struct State: Sendable {
    var pending: PendingRequests
    /// The client's input ended; the daemon was told with shutdown(SHUT_WR).
    var clientInputEnded = false
    /// The client-to-daemon pump returned.
    var clientPumpFinished = false
  }

  /// Reads and writes this large keep system calls few under load.
  static let chunkBytes = 256 << 10

  /// The client's messages (stdin).
  private let clientInput: Int32
  /// The daemon's messages go there (the protocol's stdout).
  private let clientOutput: Int32
  /// The connection to the daemon.
  private let socket: Int32
  /// The client's framing, as `--framing` set it.
  private let framing: FramingMode
  /// Client messages larger than this are passed on but not read (the daemon refuses them).
  private let maxMessageBytes: Int
  private let tracer: Tracer?
  private let state: Mutex<State>

  init(
    clientInput: Int32, clientOutput: Int32, socket: Int32, framing: FramingMode,
    maxMessageBytes: Int, locale: MessageLocale, tracer: Tracer?
  ) {
    self.clientInput = clientInput
    self.clientOutput = clientOutput
    self.socket = socket
    self.framing = framing
    self.maxMessageBytes = maxMessageBytes
    self.tracer = tracer
    let fixed: Framing? = if case .fixed(let framing) = framing { framing } else { nil }
    self.state = Mutex(State(pending: PendingRequests(locale: locale, framing: fixed)))
  }

  /// Forwards until the daemon closes the connection or the client stops
  /// reading. The client-to-daemon pump runs on a thread of its own, which
  /// may still wait for the client's input when this returns.
  func run() -> Outcome {
    startThread { [self] in
      pumpClientToDaemon()
      state.withLock { $0.clientPumpFinished = true }
    }
    return pumpDaemonToClient()
  }

  /// Whether the client-to-daemon pump returned (its input ended, `exit`
  /// was sent, or the daemon stopped reading): after that the pumps no
  /// longer touch the descriptors.
  var clientPumpFinished: Bool { state.withLock { $0.clientPumpFinished } }

  /// The ids of the requests the daemon has not answered yet.
  var pendingIDs: [RequestID] { state.withLock { $0.pending.ids } }

  // MARK: - Client to daemon

  private func pumpClientToDaemon() {
    var decoder = FrameDecoder(mode: framing, maxMessageBytes: maxMessageBytes)
    var envelopes = Envelopes()
    var framingKnown = decoder.framing != nil
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      var count = read(clientInput, chunk.baseAddress, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        Log.error("cannot read stdin", ["errno": String(errno)])
        count = 0
      }
      let endOfInput = count == 0
      let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
      if !endOfInput { decoder.append(bytes) }
      envelopes.removeAll()
      while let event = endOfInput ? decoder.finish() : decoder.next() {
        switch event {
        case .message(let range):
          decoder.buffer.withUnsafeBufferPointer { buffer in
            let body = UnsafeBufferPointer(rebasing: buffer[range])
            tracer?.record(.incoming, body)
            envelopes.add(body)
          }
        case .error(let reason):
          // The daemon's decoder finds it too, and answers it.
          tracer?.record(.incoming, note: "framing error: \(reason)")
        }
      }
      let detected = framingKnown ? nil : decoder.framing
      framingKnown = decoder.framing != nil
      var exitSent = false
      // Recorded before the bytes go out, so no response can overtake its request.
      if !envelopes.isEmpty || detected != nil || endOfInput {
        exitSent = state.withLock { state in
          if let detected { state.pending.framing = detected }
          state.pending.clientSent(envelopes)
          if endOfInput { state.clientInputEnded = true }
          return state.pending.exitNotified
        }
      }
      // A daemon that stopped reading is gone: the other pump reports it.
      if !endOfInput && !writeAll(socket, bytes) { return }
      if endOfInput || exitSent {
        // The daemon answers what it was sent, then closes its side.
        shutdown(socket, Int32(SHUT_WR))
        return
      }
    }
  }

  // MARK: - Daemon to client

  /// Copies the daemon's messages to the client, whole messages only: if
  /// the daemon dies in the middle of one, the part already read is not
  /// passed on, so the failure replies that follow are read as messages of
  /// their own. A message in parts is held until its end arrives.
  private func pumpDaemonToClient() -> Outcome {
    var decoder = FrameDecoder(mode: .auto, maxMessageBytes: Int.max)
    var envelopes = Envelopes()
    /// Bytes read but not yet written: the start of a message whose end is still to come.
    var held: [UInt8] = []
    /// Bytes read from the daemon, and the end of the last whole message among them.
    var received = 0
    var complete = 0
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let count = read(socket, chunk.baseAddress, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return daemonClosed(errno: count < 0 ? errno : nil) }
      let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
      let chunkStart = received
      decoder.append(bytes)
      received += count
      envelopes.removeAll()
      while let event = decoder.next() {
        if case .message(let range) = event {
          decoder.buffer.withUnsafeBufferPointer { buffer in
            let body = UnsafeBufferPointer(rebasing: buffer[range])
            tracer?.record(.outgoing, body)
            envelopes.add(body)
          }
        }
        complete = received - decoder.pendingByteCount
      }
      if !envelopes.responseIDs.isEmpty {
        state.withLock { $0.pending.daemonSent(envelopes) }
      }
      let whole = complete - chunkStart
      guard whole > 0 else {
        held.append(contentsOf: bytes)
        continue
      }
      let written: Bool
      if held.isEmpty {
        written = writeAll(clientOutput, UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
      } else {
        held.append(contentsOf: bytes[0..<whole])
        written = held.withUnsafeBytes { writeAll(clientOutput, $0) }
        held.removeAll(keepingCapacity: held.capacity <= Self.chunkBytes)
      }
      guard written else { return .clientGone }
      held.append(contentsOf: bytes[whole...])
    }
  }

  /// The daemon closed the connection (or it failed, with `code`): a normal
  /// end when the client had ended the session and nothing waits; else the
  /// waiting requests get their failure replies.
  private func daemonClosed(errno code: Int32?) -> Outcome {
    let (status, replies, failed) = state.withLock { state -> (Int32?, [UInt8], Int) in
      let pending = state.pending
      // A daemon of its own would exit too: 0 after `shutdown`, 1 without (LSP).
      if pending.exitNotified { return (pending.shutdownRequested ? 0 : 1, [], 0) }
      if !pending.isEmpty {
        return (nil, pending.failureReplies(framing: pending.framing ?? .ndjson), pending.count)
      }
      return (state.clientInputEnded ? 0 : nil, [], 0)
    }
    if let status { return .finished(status: status) }
    if !replies.isEmpty {
      _ = replies.withUnsafeBytes { writeAll(clientOutput, $0) }
    }
    let reason =
      code.map { "reading it failed: \(String(cString: strerror($0)))" } ?? "end of stream"
    return .daemonLost(reason: reason, failed: failed)
  }
}
