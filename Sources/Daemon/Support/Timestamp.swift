#if canImport(Glibc)
  import Glibc
#endif

/// RFC 3339 UTC timestamps with microseconds, for logs and traces, without
/// the cost of a date formatter on every line.
enum Timestamp {
  static func now() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let micro = String(now.tv_nsec / 1000)
    return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
      + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
      + String(repeating: "0", count: 6 - micro.count) + micro + "Z"
  }
}
