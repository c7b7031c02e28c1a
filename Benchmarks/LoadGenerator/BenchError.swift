import Glibc

/// Why a figure could not be measured; each case names what to look at.
enum BenchError: Error, CustomStringConvertible {
  case usage(String)
  case system(call: String, errno: Int32)
  case daemonClosedOutput(answered: Int, expected: Int)
  case badFraming(String)
  case wrongReplies(String)
  case badExit(waitStatus: Int32)
  case timedOut(seconds: Int)
  case harness(String)

  var description: String {
    switch self {
    case .usage(let message):
      return message
    case .system(let call, let code):
      return "\(call): \(String(cString: strerror(code)))"
    case .daemonClosedOutput(let answered, let expected):
      return "the daemon closed its stdout after \(answered) of \(expected) replies"
    case .badFraming(let reason):
      return "bad framing from the daemon: \(reason)"
    case .wrongReplies(let summary):
      return "wrong replies: \(summary)"
    case .badExit(let status):
      // WIFEXITED and friends are macros, which Swift does not import.
      let signal = status & 0x7f
      return signal == 0
        ? "the daemon exited with status \((status >> 8) & 0xff), not 0"
        : "the daemon was killed by signal \(signal)"
    case .timedOut(let seconds):
      return "the daemon did not finish within \(seconds) s and was killed (see --timeout)"
    case .harness(let reason):
      return "catalogd-bench itself failed: \(reason)"
    }
  }
}
