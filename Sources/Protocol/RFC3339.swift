#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times on the wire are RFC 3339 UTC strings; inside, microseconds since the epoch.
public enum RFC3339 {
  /// `2026-11-22T02:55:00.123456Z` for `microseconds` since 1970-01-01T00:00:00Z.
  public static func string(microseconds: Int64) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(27)
    Text(microseconds: microseconds).write(into: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// The text of one time, made once and written where it goes, as often as
  /// it goes there: a product's `updatedAt` is its `createdAt` until it changes.
  public struct Text: Sendable {
    /// The 27 bytes, filled in place two digits at a time (no loop).
    @usableFromInline var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline let year: Int

    public init(microseconds: Int64) {
      let seconds = microseconds.floorDivided(by: 1_000_000)
      let fraction = Int(microseconds - seconds * 1_000_000)
      let days = seconds.floorDivided(by: 86_400)
      let time = Int(seconds - days * 86_400)
      // The civil date of `days` since 1970-01-01 (Howard Hinnant's civil_from_days).
      let shifted = days + 719_468
      let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
      let dayOfEra = shifted - era * 146_097
      let yearOfEra =
        (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
      let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
      let monthIndex = (5 * dayOfYear + 2) / 153
      let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
      let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
      let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
      self.year = year
      withUnsafeMutableBytes(of: &bytes) { text in
        func put(_ value: Int, at index: Int) {
          text[index] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
          text[index + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
        }
        let shownYear = (0...9_999).contains(year) ? year : 0
        put(shownYear / 100, at: 0)
        put(shownYear % 100, at: 2)
        text[4] = 0x2D
        put(month, at: 5)
        text[7] = 0x2D
        put(day, at: 8)
        text[10] = 0x54
        put(time / 3_600, at: 11)
        text[13] = 0x3A
        put(time / 60 % 60, at: 14)
        text[16] = 0x3A
        put(time % 60, at: 17)
        text[19] = 0x2E
        put(fraction / 10_000, at: 20)
        put(fraction / 100 % 100, at: 22)
        put(fraction % 100, at: 24)
        text[26] = 0x5A
      }
    }

    @inlinable
    public func write<Output: JSONOutput & ~Copyable>(into output: inout Output) {
      // Typed as bytes: raw bytes would be appended one at a time.
      withUnsafeBytes(of: bytes) { raw in
        raw.withMemoryRebound(to: UInt8.self) { text in
          // A year outside 0…9999 is written whole (RFC 3339 has no room for it).
          if (0...9_999).contains(year) {
            output.append(bytes: UnsafeBufferPointer(rebasing: text[..<27]))
          } else {
            JSONWriter.writeInteger(year, into: &output)
            output.append(bytes: UnsafeBufferPointer(rebasing: text[4..<27]))
          }
        }
      }
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

}

extension Int64 {
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor < 0) ? quotient - 1 : quotient
  }
}
