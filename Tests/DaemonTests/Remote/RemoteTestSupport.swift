import XCTest

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under /tmp, short enough for socket paths, mode 0700.
func makeTemporaryFolder() -> String {
  var template = Array("/tmp/catalogd-test-XXXXXX".utf8CString)
  guard let made = mkdtemp(&template) else { return "/tmp" }
  return String(cString: made)
}

/// Removes `path` and everything in it.
func removeTree(_ path: String) {
  guard path.hasPrefix("/tmp/catalogd-test-") else { return }
  _ = try? FileManager.default.removeItem(atPath: path)
}

/// Waits until `condition` holds, checking every millisecond, for at most `timeout` seconds.
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = monotonicSeconds() + timeout
  while !condition() {
    if monotonicSeconds() > deadline { return false }
    usleep(1_000)
  }
  return true
}

/// Whether a read on `fd` would not wait now (bytes, end of stream or an error).
func isReadable(_ fd: Int32, within timeout: Double) -> Bool {
  var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  return poll(&entry, 1, Int32(timeout * 1000)) == 1
}

/// Reads from `fd` until `done` holds for what was read, the stream ends,
/// or `timeout` seconds pass; returns what was read.
func readUntil(_ fd: Int32, timeout: Double = 10, _ done: ([UInt8]) -> Bool) -> [UInt8] {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  let deadline = monotonicSeconds() + timeout
  while !done(bytes) {
    let left = deadline - monotonicSeconds()
    guard left > 0, isReadable(fd, within: left) else { break }
    let count = read(fd, &chunk, chunk.count)
    guard count > 0 else { break }
    bytes += chunk[0..<count]
  }
  return bytes
}

/// Reads from `fd` until the stream ends (or `timeout` passes).
func readToEnd(_ fd: Int32, timeout: Double = 10) -> [UInt8] {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  let deadline = monotonicSeconds() + timeout
  while true {
    let left = deadline - monotonicSeconds()
    guard left > 0, isReadable(fd, within: left) else { return bytes }
    let count = read(fd, &chunk, chunk.count)
    guard count > 0 else { return bytes }
    bytes += chunk[0..<count]
  }
}

func writeText(_ fd: Int32, _ text: String) {
  Array(text.utf8).withUnsafeBytes { _ = writeAll(fd, $0) }
}

/// How many times `needle` occurs in `bytes`.
func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
  String(decoding: bytes, as: UTF8.self).components(separatedBy: needle).count - 1
}

/// The system Python, which the tests use to play a daemon or another user.
let systemPython = "/usr/bin/python3"

/// Writes an executable script to `path`.
func writeScript(_ path: String, _ text: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  XCTAssertEqual(chmod(path, 0o700), 0)
}
