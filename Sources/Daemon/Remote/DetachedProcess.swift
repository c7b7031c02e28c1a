#if canImport(Glibc)
  import Glibc
#endif

/// Starts a program that outlives whoever started it: in a session of its
/// own (so the terminal's Ctrl-C and the editor's kill of the starter's
/// process group do not reach it), stdin and stdout on /dev/null, stderr
/// appended to a log file, and no other descriptor of the starter's.
///
/// Linux-only (glibc's `POSIX_SPAWN_SETSID` value and
/// `posix_spawn_file_actions_addclosefrom_np`): a macOS port changes this file.
enum DetachedProcess {
  /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), declared only under `_GNU_SOURCE`.
  private static let startNewSession: Int32 = 0x80

  /// Starts `executable` with `arguments` and exactly `environment`; returns its pid.
  static func spawn(
    executable: String, arguments: [String], environment: [String: String], logPath: String
  ) throws(RemoteError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
    // A descriptor the client gave the forwarder without close-on-exec (a
    // pipe of a test runner, a make jobserver's) would otherwise stay open
    // in the daemon for its whole life, and whoever waits for its end would wait.
    if let closeFrom = CloseFrom.shared.pointer { _ = closeFrom(&actions, 3) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(
      &attributes, Int16(startNewSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    // The daemon must stop on SIGINT and SIGTERM even when the forwarder was
    // started with them ignored or blocked (as `nohup` and `cmd &` do).
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid = pid_t()
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else { throw .system(call: "start", path: executable, errno: status) }
    return pid
  }

  /// posix_spawn_file_actions_addclosefrom_np (glibc 2.34 and later), looked
  /// up once: it is declared only under `_GNU_SOURCE`. Without it only
  /// close-on-exec descriptors are closed.
  private struct CloseFrom: @unchecked Sendable {
    // `@unchecked Sendable`: a C function pointer, immutable once looked up.
    typealias Function =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    let pointer: Function?

    static let shared = CloseFrom(
      pointer: dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: Function.self)
      })
  }
}
