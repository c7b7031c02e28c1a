/// The `version` of a product of the remote backend, derived from its `updatedAt`
/// because the upstream schema has no version of its own.
///
/// The upstream changes `updatedAt` at every update, so the version is:
/// - the whole milliseconds since the Unix epoch of an RFC 3339 `updatedAt`
///   (`2024-05-01T09:30:00.123Z` → `1714555800123`; at least 1);
/// - `1` when `updatedAt` is null;
/// - for a text that is not RFC 3339, a stable hash of it (FNV-1a, 53 bits, at least 2),
///   so the version still changes when the text does.
///
/// The same product always gets the same version, in this daemon and in any
/// other. Unlike the embedded backend's, versions grow with time rather than by
/// one per update, and two updates within the upstream's clock resolution (a
/// millisecond, or a second for an upstream that writes whole seconds) share one.
enum GraphQLProductVersion {
  static func of(updatedAt: String?) -> Int {
    guard let updatedAt else { return 1 }
    if let milliseconds = epochMilliseconds(rfc3339: updatedAt) { return max(1, milliseconds) }
    return max(2, Int(fnv1a(updatedAt) & ((1 << 53) - 1)))
  }

  /// Milliseconds since 1970-01-01T00:00:00Z of an RFC 3339 date-time
  /// (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `t`, `z` and a space accepted);
  /// digits of the fraction beyond milliseconds are dropped. Nil when `text` is not one.
  static func epochMilliseconds(rfc3339 text: String) -> Int? {
    let bytes = Array(text.utf8)
    var index = 0
    func isDigit(at position: Int) -> Bool {
      position < bytes.count && bytes[position] >= UInt8(ascii: "0")
        && bytes[position] <= UInt8(ascii: "9")
    }
    func digit(at position: Int) -> Int { Int(bytes[position] - UInt8(ascii: "0")) }
    func digits(_ count: Int) -> Int? {
      var value = 0
      for position in index..<index + count {
        guard isDigit(at: position) else { return nil }
        value = value * 10 + digit(at: position)
      }
      index += count
      return value
    }
    func skip(_ allowed: String) -> Bool {
      guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2),
      skip("Tt "), let hour = digits(2), skip(":"), let minute = digits(2), skip(":"),
      let second = digits(2)
    else { return nil }
    var milliseconds = 0
    if skip(".") {
      let start = index
      while isDigit(at: index) {
        if index - start < 3 { milliseconds = milliseconds * 10 + digit(at: index) }
        index += 1
      }
      guard index > start else { return nil }
      for _ in min(index - start, 3)..<3 { milliseconds *= 10 }
    }
    var offsetSeconds = 0
    if !skip("Zz") {
      guard index < bytes.count else { return nil }
      let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      guard skip("+-"), let offsetHour = digits(2), skip(":"), let offsetMinute = digits(2),
        offsetHour <= 23, offsetMinute <= 59
      else { return nil }
      offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
    }
    guard index == bytes.count, (1...12).contains(month),
      (1...daysInMonth(month, year: year)).contains(day), hour <= 23, minute <= 59, second <= 60
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return seconds * 1000 + milliseconds
  }

  private static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
  /// (Howard Hinnant's `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year  // Years start in March: leap days come last.
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// 64-bit FNV-1a of the UTF-8 bytes: unlike `Hasher`, the same in every process.
  private static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
