import Glibc

/// A pipe whose ends close on exec, so a spawned daemon keeps only what is dup2'ed onto its
/// stdin and stdout.
struct Pipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [0, 0]
    // pipe2 is not visible from Swift. Setting close-on-exec after the fact is safe because
    // only the main thread spawns, so no exec can come in between.
    guard pipe(&ends) == 0 else { throw BenchError.system(call: "pipe", errno: errno) }
    readEnd = try Self.aboveStandardDescriptors(ends[0])
    writeEnd = try Self.aboveStandardDescriptors(ends[1])
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
  }

  /// Moves an end that landed on 0, 1 or 2 (the bench was started with one of them closed, as
  /// CI may do) out of the way: dup2'ing it onto itself in the child would keep close-on-exec.
  private static func aboveStandardDescriptors(_ fd: Int32) throws -> Int32 {
    guard fd < 3 else { return fd }
    let moved = fcntl(fd, F_DUPFD_CLOEXEC, Int32(3))
    guard moved >= 0 else { throw BenchError.system(call: "fcntl", errno: errno) }
    close(fd)
    return moved
  }
}

/// Writes all of `bytes`. A blocking pipe takes even a large write whole, so this is one system
/// call unless a signal interrupts it.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
  guard var next = bytes.baseAddress else { return }
  var left = bytes.count
  while left > 0 {
    let written = write(fd, next, left)
    if written < 0 {
      if errno == EINTR { continue }
      throw BenchError.system(call: "write", errno: errno)
    }
    next += written
    left -= written
  }
}
