#if canImport(Glibc)
  import Glibc
#endif

/// Keeps stdout for protocol messages: returns a private copy of it and
/// points fd 1 at stderr, so a stray print from any code cannot corrupt the
/// stream. Exits 70 when the descriptors cannot be set up.
func takeProtocolStdout() -> Int32 {
  let protocolFD = dup(1)
  guard protocolFD >= 0, dup2(2, 1) >= 0 else {
    Log.error("cannot set up stdout", ["errno": String(errno)])
    exit(70)
  }
  _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
  return protocolFD
}
