import Protocol
import Services

#if canImport(Glibc)
  import Glibc
#endif

/// The one reader of a session's protocol stream (stdin, or the client's
/// stdin a forwarder handed to the shared daemon): splits it into messages and hands them to the
/// connection in arrival order.
///
/// Before each read it waits for room in the outbox and in the connection's
/// queue of requests, so a client that sends faster than it reads, or floods
/// the daemon with slow requests, is slowed down rather than buffered without bound.
struct MessageReader {
  /// The stream: 0 for stdin, or the one a forwarder handed over.
  let fd: Int32
  let connection: Connection
  let outbox: Outbox
  let tracer: Tracer?
  let configuration: Configuration
  /// A forwarded session's end, which stops the reader between messages and
  /// while it waits for input; nil for a stdio daemon, which exits instead.
  var end: SessionEnd? = nil

  /// Reads until end of input (or a read error, logged), then returns.
  func run() {
    var decoder = FrameDecoder(
      mode: configuration.framing, maxMessageBytes: configuration.maxMessageBytes)
    var framingKnown = decoder.framing != nil
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      outbox.waitForRoom()
      connection.waitForRoom()
      if let end, end.isRequested || !end.wait(for: Int16(POLLIN), on: fd) { return }
      let count = read(fd, chunk.baseAddress, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        Log.error("cannot read the client's messages", ["errno": String(errno)])
        return
      }
      let endOfInput = count == 0
      if !endOfInput { decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
      // The reads among the requests read at once share one snapshot of each file.
      SQLiteThreadReaders.beginBurst()
      while let event = endOfInput ? decoder.finish() : decoder.next() {
        if !framingKnown, let framing = decoder.framing {
          framingKnown = true
          outbox.setFraming(framing)
          Log.debug("framing detected", ["framing": framing.rawValue])
        }
        switch event {
        case .message(let range):
          decoder.buffer.withUnsafeBufferPointer { bytes in
            let body = UnsafeBufferPointer(rebasing: bytes[range])
            tracer?.record(.incoming, body)
            connection.receive(body, moreInput: decoder.pendingByteCount > 0)
          }
        case .error(let reason):
          tracer?.record(.incoming, note: "framing error: \(reason)")
          Log.warn("framing error", ["reason": reason])
          connection.receiveFramingError(reason)
        }
        // After `exit`, nothing more of the client's is read.
        if end?.isRequested == true { break }
        connection.waitForRoom()
      }
      SQLiteThreadReaders.endBurst()
      outbox.flush()
      if endOfInput { return }
    }
  }
}
