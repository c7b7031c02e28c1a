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
    let year = Int(parts.tm_year) + 1900
    guard (0...9999).contains(year) else {
      return "\(pad(Int32(year), 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
        + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
        + pad(Int32(fraction), 6) + "Z"
    }
    // Written digit by digit: every product a read returns has two of these.
    return String(unsafeUninitializedCapacity: 27) { text in
      func put(_ value: Int, _ width: Int, at end: Int) {
        var value = value
        for index in stride(from: end - 1, through: end - width, by: -1) {
          text[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
          value /= 10
        }
      }
      put(year, 4, at: 4)
      text[4] = 0x2D
      put(Int(parts.tm_mon) + 1, 2, at: 7)
      text[7] = 0x2D
      put(Int(parts.tm_mday), 2, at: 10)
      text[10] = 0x54
      put(Int(parts.tm_hour), 2, at: 13)
      text[13] = 0x3A
      put(Int(parts.tm_min), 2, at: 16)
      text[16] = 0x3A
      put(Int(parts.tm_sec), 2, at: 19)
      text[19] = 0x2E
      put(fraction, 6, at: 26)
      text[26] = 0x5A
      return 27
    }
  }

  /// Now, in microseconds since the epoch.
  public static func nowMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec / 1000)
  }

  public static func now() -> String { string(microseconds: nowMicroseconds()) }

  /// The microseconds since the epoch that `string(microseconds:)` wrote as
  /// `text`; nil for any other shape.
  public static func microseconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 27, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
      bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[26] == 0x5A
    else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let fraction = number(20..<26), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return ((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000 + fraction
  }

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
