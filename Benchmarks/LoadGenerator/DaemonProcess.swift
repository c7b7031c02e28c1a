import Glibc
import Services

/// A child process with pipes on its stdin and stdout. Its stderr is the bench's, so whatever
/// the daemon logs at `--log-level error` shows up beside the figures.
final class DaemonProcess {
  let pid: pid_t
  /// The write end of the child's stdin; -1 once closed.
  private(set) var input: Int32
  /// The read end of the child's stdout.
  let output: Int32
  /// When posix_spawn was called: where the start-up figure begins.
  let spawnedAt: UInt64
  /// Whether the child has been waited for.
  private var reaped = false

  init(executable: String, arguments: [String]) throws {
    let stdinPipe = try Pipe()
    let stdoutPipe = try Pipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe.readEnd, 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe.writeEnd, 1)

    // The bench ignores SIGPIPE, and ignored signals survive exec: give the daemon the default
    // disposition any client would.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    spawnedAt = monotonicNanoseconds()
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    // The child has its own copies now; ours would hide its end of file and our EPIPE.
    close(stdinPipe.readEnd)
    close(stdoutPipe.writeEnd)
    guard status == 0 else {
      close(stdinPipe.writeEnd)
      close(stdoutPipe.readEnd)
      throw BenchError.system(call: "posix_spawn \(executable)", errno: status)
    }
    self.pid = pid
    input = stdinPipe.writeEnd
    output = stdoutPipe.readEnd
  }

  /// Ends the child's input: after `exit`, and the end of file a daemon must handle anyway.
  func closeInput() {
    guard input >= 0 else { return }
    close(input)
    input = -1
  }

  /// The child's peak resident set size so far (`VmHWM` in /proc), in KiB.
  func peakResidentKilobytes() throws -> Int { try statusKilobytes("VmHWM") }

  /// The child's resident set size now (`VmRSS` in /proc), in KiB.
  func residentKilobytes() throws -> Int { try statusKilobytes("VmRSS") }

  /// The child's proportional set size now (`Pss` in /proc, in KiB): its resident pages, each
  /// page shared with other processes (a library, the binary) counted as its share.
  func proportionalKilobytes() throws -> Int { try statusKilobytes("Pss", file: "smaps_rollup") }

  /// A "kB" line of `/proc/PID/status` (or another such file), such as `VmHWM`.
  private func statusKilobytes(_ name: String, file: String = "status") throws -> Int {
    let path = "/proc/\(pid)/\(file)"
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw BenchError.system(call: "open \(path)", errno: errno) }
    defer { close(fd) }
    var status = [UInt8](repeating: 0, count: 8192)
    let count = read(fd, &status, status.count)
    guard count > 0 else { throw BenchError.system(call: "read \(path)", errno: errno) }
    let text = String(decoding: status[0..<count], as: UTF8.self)
    // The line reads "VmHWM:\t   12345 kB".
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
      let kilobytes = Int(
        line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
          ?? "")
    else { throw BenchError.harness("no \(name) line in /proc/\(pid)/status") }
    return kilobytes
  }

  /// Waits until the child's main thread sleeps in read(2) (`/proc/PID/syscall`
  /// starts with its number, 0 on x86-64 and 63 on arm64): where a forwarder
  /// waits for its session's end once it has handed the session over and
  /// dropped its start's pages. Throws after `seconds`.
  func waitUntilBlockedInRead(seconds: Double) throws {
    #if arch(arm64)
      let readCall = "63 "
    #else
      let readCall = "0 "
    #endif
    let path = "/proc/\(pid)/syscall"
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { throw BenchError.system(call: "open \(path)", errno: errno) }
      var text = [UInt8](repeating: 0, count: 256)
      let count = read(fd, &text, text.count)
      close(fd)
      if count > 0, String(decoding: text[0..<count], as: UTF8.self).hasPrefix(readCall) { return }
      guard monotonicNanoseconds() < deadline else {
        throw BenchError.harness("process \(pid) never waited in read(2)")
      }
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      nanosleep(&pause, nil)
    }
  }

  /// Waits for the child to end and returns its raw wait status.
  func wait() throws -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw BenchError.system(call: "waitpid", errno: errno) }
    }
    reaped = true
    return status
  }

  /// Kills the child; used when a run has failed and the daemon may be stuck.
  func kill() {
    guard !reaped else { return }
    Glibc.kill(pid, SIGKILL)
  }

  /// Kills the child if it is still there and waits for it.
  func terminate() {
    guard !reaped else { return }
    kill()
    _ = try? wait()  // It fails only when there is no child left to wait for.
  }

  deinit {
    terminate()
    closeInput()
    close(output)
  }
}
