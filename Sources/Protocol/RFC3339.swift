#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times on the wire are RFC 3339 UTC strings; inside, microseconds since the epoch.
public enum RFC3339 {
  /// `2026-11-22T02:55:00.123456Z` for `microseconds` since 1970-01-01T00:00:00Z.
  public static func string(microseconds: Int64) -> String {
    var seconds = time_t(microseconds.floorDivided(by: 1_000_000))
    let fraction = Int(microseconds - Int64(seconds) * 1_000_000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
      + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
      + pad(Int32(fraction), 6) + "Z"
  }

  /// Now, in microseconds since the epoch.
  public static func nowMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec / 1000)
  }

  public static func now() -> String { string(microseconds: nowMicroseconds()) }

  private static func pad(_ value: Int32, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

extension Int64 {
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor < 0) ? quotient - 1 : quotient
  }
}
