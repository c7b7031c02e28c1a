import Glibc
import Services

/// The bench's own ceiling, measured with no daemon, to show that it is not what limits the
/// throughput figure: the requests written into a pipe that a thread drains, and canned replies
/// written by a thread into a pipe that is read and tallied as a daemon's stdout would be.
struct Calibration {
  let writesPerSecond: Double
  let readsPerSecond: Double

  init(framing: Framing, requests: Int) throws {
    let requestBytes = Request.echoes(1...requests, framing: framing).bytes
    let toSink = try Pipe()
    let sinkInput = toSink.readEnd
    let sink = try NativeThread {
      // 64 KiB reads: what a daemon's reader would plausibly ask for.
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while read(sinkInput, &buffer, buffer.count) > 0 {}
    }
    let writeStart = monotonicNanoseconds()
    try requestBytes.withUnsafeBytes { try writeAll(toSink.writeEnd, $0) }
    close(toSink.writeEnd)
    _ = sink.join()
    let writeEnd = monotonicNanoseconds()
    close(sinkInput)
    writesPerSecond = Double(requests) * 1e9 / Double(writeEnd - writeStart)

    var replies: [UInt8] = []
    for id in 1...requests {
      framing.append(#"{"jsonrpc":"2.0","id":\#(id),"result":{"n":\#(id)}}"#, to: &replies)
    }
    let fromSource = try Pipe()
    let sourceOutput = fromSource.writeEnd
    let readStart = monotonicNanoseconds()
    let source = try NativeThread { [replies] () -> Result<Void, BenchError> in
      defer { close(sourceOutput) }
      do {
        try replies.withUnsafeBytes { try writeAll(sourceOutput, $0) }
      } catch {
        return .failure(error as? BenchError ?? .harness("\(error)"))
      }
      return .success(())
    }
    let reader = ReplyReader(fd: fromSource.readEnd, framing: framing)
    var tally = ReplyTally(ids: 1...requests)
    defer { close(fromSource.readEnd) }  // Also on failure, so a blocked source gets EPIPE.
    try reader.read(replies: requests, into: &tally)
    let readEnd = monotonicNanoseconds()
    try source.join()?.get()
    try tally.verify()
    readsPerSecond = Double(requests) * 1e9 / Double(readEnd - readStart)
  }
}
