import Glibc

/// Runs a program to its end; throws unless it exits 0. With `outputToStandardError` its
/// stdout goes to the bench's stderr (a `--json` run keeps stdout for the JSON object).
func spawnAndWait(_ executable: String, _ arguments: [String], outputToStandardError: Bool = false)
  throws
{
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  if outputToStandardError { posix_spawn_file_actions_adddup2(&actions, 2, 1) }
  let pid = try spawn(executable, arguments, &actions)
  try waitForExit(pid)
}

/// Runs a program to its end and returns its stdout without the final newline; throws unless it
/// exits 0.
func captureOutput(_ executable: String, _ arguments: [String]) throws -> String {
  let output = try Pipe()
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
  let pid: pid_t
  do {
    pid = try spawn(executable, arguments, &actions)
  } catch {
    close(output.readEnd)
    close(output.writeEnd)
    throw error
  }
  close(output.writeEnd)
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = read(output.readEnd, &chunk, chunk.count)
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    bytes.append(contentsOf: chunk[0..<count])
  }
  close(output.readEnd)
  try waitForExit(pid)
  while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
  return String(decoding: bytes, as: UTF8.self)
}

private func spawn(
  _ executable: String, _ arguments: [String], _ actions: inout posix_spawn_file_actions_t
) throws -> pid_t {
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer {
    for argument in argv { free(argument) }
  }
  var pid = pid_t()
  let status = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
  guard status == 0 else {
    throw BenchError.system(call: "posix_spawn \(executable)", errno: status)
  }
  return pid
}

private func waitForExit(_ pid: pid_t) throws {
  var waitStatus: Int32 = 0
  while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
  guard waitStatus == 0 else { throw BenchError.badExit(waitStatus: waitStatus) }
}
