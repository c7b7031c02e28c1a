import Glibc

/// Reads the daemon's stdout into one buffer and tallies whole messages, found by their framing
/// alone. A message cut by a read stays at the buffer's end and is moved to its front before
/// the next read, so every message is contiguous when it is tallied.
final class ReplyReader {
  private let fd: Int32
  private let framing: Framing
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  /// Bytes `start..<end` of `storage` are read but not yet tallied.
  private var start = 0
  private var end = 0

  init(fd: Int32, framing: Framing, capacity: Int = 1 << 20) {
    self.fd = fd
    self.framing = framing
    self.capacity = capacity
    storage = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit { storage.deallocate() }

  /// Reads until `count` more replies (messages with an id) are tallied.
  func read(replies count: Int, into tally: inout ReplyTally) throws {
    let target = tally.answered + count
    while tally.answered < target {
      let pending = UnsafeRawBufferPointer(start: storage + start, count: end - start)
      if let message = try framing.nextMessage(in: pending) {
        tally.record(UnsafeRawBufferPointer(rebasing: pending[message.body]))
        start += message.next
      } else if try !fill() {
        throw BenchError.daemonClosedOutput(
          answered: count - (target - tally.answered), expected: count)
      }
    }
  }

  /// Reads and discards everything up to the end of file.
  func drainToEnd() throws {
    start = 0
    end = 0
    while try fill() { end = 0 }
  }

  /// Reads what the pipe holds, after making room; false at end of file.
  private func fill() throws -> Bool {
    if start > 0 {
      memmove(storage, storage + start, end - start)
      end -= start
      start = 0
    }
    if end == capacity {  // One message larger than the buffer.
      let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
      larger.copyMemory(from: storage, byteCount: end)
      storage.deallocate()
      storage = larger
      capacity *= 2
    }
    while true {
      let count = Glibc.read(fd, storage + end, capacity - end)
      if count > 0 {
        end += count
        return true
      }
      if count == 0 { return false }
      guard errno == EINTR else { throw BenchError.system(call: "read", errno: errno) }
    }
  }
}
