#if canImport(Glibc)
  import Glibc
#endif

/// `--remote=auto`: connects to the shared daemon of this configuration,
/// starting it when none runs.
///
/// Starting takes the lock file beside the socket, so forwarders started at
/// the same moment end up with one daemon: the first starts it and waits
/// until it listens; the others, once they have the lock, find it listening.
/// A warm daemon is reached without the lock.
enum SharedDaemonStarter {
  /// How long a started daemon may take to listen.
  static let startTimeout = 10.0
  /// A daemon log larger than this is moved to `<log>.1` before the next start.
  static let maxLogBytes = 1 << 20

  static func connect(
    configuration: Configuration, arguments: [String], environment: [String: String]
  ) throws(RemoteError) -> Int32 {
    let directory = try SocketDirectory.forUser(environment: environment)
    let socket = SocketDirectory.socketPath(for: configuration, in: directory)
    return try connect(
      socket: socket, configuration: configuration, arguments: arguments,
      environment: environment)
  }

  /// Connects to the daemon on `socket`, starting `executable` (this
  /// catalogd, unless a test names another) as `serve --listen socket` when nothing listens.
  static func connect(
    socket: String, configuration: Configuration, arguments: [String],
    environment: [String: String], executable: String? = nil
  ) throws(RemoteError) -> Int32 {
    if let fd = try connectIfListening(socket) { return fd }
    let lock = try LockFile(path: SocketDirectory.lockPath(forSocket: socket))
    // Held until the daemon listens, or starting it failed.
    defer { withExtendedLifetime(lock) {} }
    // Another forwarder may have started it while this one waited for the lock.
    if let fd = try connectIfListening(socket) { return fd }
    let log = SocketDirectory.logPath(forSocket: socket)
    if fileSize(log) > maxLogBytes { rename(log, log + ".1") }
    let logStart = fileSize(log)
    var program = executable ?? ""
    if executable == nil { program = try ExecutablePath.current() }
    let pid = try DetachedProcess.spawn(
      executable: program,
      arguments: daemonArguments(
        socket: socket, idleTimeoutSeconds: configuration.idleTimeoutSeconds,
        forwarderArguments: arguments),
      environment: daemonEnvironment(environment), logPath: log)
    Log.debug("started a shared daemon", ["pid": String(pid), "socket": socket])
    return try waitUntilListening(socket: socket, pid: pid, log: log, logStart: logStart)
  }

  /// The daemon's command line: `serve --listen SOCKET --idle-timeout N`,
  /// then the forwarder's flags but those that concern the forwarder alone.
  ///
  /// `--remote=` and `--framing=auto` override a config file or variable
  /// that says otherwise: a daemon that forwarded would forward to itself,
  /// and each session's framing is its own client's, detected from its
  /// first bytes. Positionals (`call METHOD PARAMS`) are left out.
  static func daemonArguments(
    socket: String, idleTimeoutSeconds: Int, forwarderArguments: [String]
  ) -> [String] {
    var result = [
      "serve", "--listen", socket, "--idle-timeout", String(idleTimeoutSeconds), "--remote=",
      "--framing=auto",
    ]
    var index = forwarderArguments.startIndex
    while index < forwarderArguments.endIndex {
      let argument = forwarderArguments[index]
      index += 1
      guard argument.hasPrefix("--"), argument.count > 2 else { continue }
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      // Every flag takes a value, after `=` or as the next argument (see parseArguments).
      var value: String?
      if !argument.contains("="), index < forwarderArguments.endIndex {
        value = forwarderArguments[index]
        index += 1
      }
      guard !forwarderOnlyFlags.contains(name) else { continue }
      result.append(argument)
      if let value { result.append(value) }
    }
    return result
  }

  /// Flags about one forwarder and its session, not about what the daemon
  /// serves. `--trace` is the forwarder's own: it records its session there.
  static let forwarderOnlyFlags: Set<String> = [
    "--remote", "--listen", "--idle-timeout", "--framing", "--trace",
  ]

  /// The forwarder's environment (the `CATALOGD_*` settings, HOME and the
  /// XDG folders decide the daemon's configuration as they decided the
  /// forwarder's) without the variables of the forwarder-only settings.
  static func daemonEnvironment(_ environment: [String: String]) -> [String: String] {
    environment.filter { !forwarderOnlyVariables.contains($0.key) }
  }

  static let forwarderOnlyVariables: Set<String> = [
    "CATALOGD_REMOTE", "CATALOGD_FRAMING", "CATALOGD_TRACE",
  ]

  private static func connectIfListening(_ socket: String) throws(RemoteError) -> Int32? {
    do {
      return try UnixSocket.connect(path: socket)
    } catch .notListening {
      return nil
    }
  }

  /// Polls until the started daemon accepts, it exits, or `startTimeout` passes.
  private static func waitUntilListening(
    socket: String, pid: pid_t, log: String, logStart: Int
  ) throws(RemoteError) -> Int32 {
    let deadline = monotonicSeconds() + startTimeout
    var pause: UInt32 = 500
    while true {
      if let fd = try connectIfListening(socket) { return fd }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        // It may have found another daemon listening already: then that one serves.
        if let fd = try connectIfListening(socket) { return fd }
        throw .daemonDidNotStart(
          socket: socket, log: log, detail: "it \(exitDescription(status))",
          logTail: tail(of: log, from: logStart))
      }
      if monotonicSeconds() >= deadline {
        throw .daemonDidNotStart(
          socket: socket, log: log,
          detail: "no answer within \(Int(startTimeout)) s; it still runs as pid \(pid)",
          logTail: tail(of: log, from: logStart))
      }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
  }

  /// A wait status in words: "exited with status 3", "was killed by signal 9".
  private static func exitDescription(_ status: Int32) -> String {
    let signal = status & 0x7F
    return signal == 0
      ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
  }

  /// The last lines the daemon wrote to its log since `offset`, at most 4 KiB.
  static func tail(of path: String, from offset: Int) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    let size = fileSize(path)
    let start = max(offset, size - 4096)
    guard size > start else { return "" }
    var bytes = [UInt8](repeating: 0, count: size - start)
    let count = pread(fd, &bytes, bytes.count, off_t(start))
    guard count > 0 else { return "" }
    let text = String(decoding: bytes[0..<count], as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(20)
    return lines.joined(separator: "\n")
  }

  private static func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }
}
