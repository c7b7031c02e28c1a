import Glibc

/// Runs a program to its end; throws unless it exits 0.
func spawnAndWait(_ executable: String, _ arguments: [String]) throws {
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer {
    for argument in argv { free(argument) }
  }
  var pid = pid_t()
  let status = posix_spawnp(&pid, executable, nil, nil, argv, environ)
  guard status == 0 else {
    throw BenchError.system(call: "posix_spawn \(executable)", errno: status)
  }
  var waitStatus: Int32 = 0
  while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
  guard waitStatus == 0 else { throw BenchError.badExit(waitStatus: waitStatus) }
}
