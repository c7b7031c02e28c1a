import Glibc

/// The order of the folder's photos: the bytes of their relative paths'
/// UTF-8, as `memcmp` compares them. It does not depend on the locale, and it
/// is the order of SQLite's BINARY collation, so the index cache lists its
/// files in it. Swift's `<` and `==` on strings compare canonical
/// equivalents instead (an é of one code point equals e and a combining
/// accent), which two file names may well be.
enum PathOrder {
  /// Negative when `a` comes first, 0 when the bytes are the same, positive
  /// when `b` comes first.
  static func compare(_ a: String, _ b: String) -> Int {
    var (a, b) = (a, b)
    return a.withUTF8 { a in
      b.withUTF8 { b in
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
          let order = memcmp(left, right, common)
          if order != 0 { return Int(order) }
        }
        return a.count - b.count
      }
    }
  }

  /// Whether `a` comes before `b`.
  static func precedes(_ a: String, _ b: String) -> Bool {
    compare(a, b) < 0
  }
}
