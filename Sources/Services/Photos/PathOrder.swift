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

extension PathOrder {
  /// The first position of `elements` (in `PathOrder` of `path`), from
  /// `start` on, whose path does not come before `target`; with `after`, the
  /// first whose path comes after it.
  static func firstPosition<T>(
    in elements: [T], from start: Int = 0, notBefore target: String, after: Bool = false,
    path: (T) -> String
  ) -> Int {
    var (low, high) = (start, elements.count)
    while low < high {
      let middle = low + (high - low) / 2
      let order = compare(path(elements[middle]), target)
      if order < 0 || (after && order == 0) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// `elements` (in `PathOrder` of `path`) without those at the paths of
  /// `removing`, and with `inserting` put in place; both are in `PathOrder`,
  /// and each path of `inserting` is one of `removing` or new to `elements`.
  ///
  /// The runs of `elements` between two changes are copied whole, found by
  /// binary search: a few changes to 100,000 elements compare a few dozen
  /// paths, not 100,000.
  static func merged<T>(
    _ elements: [T], removing: [String], inserting: [T], path: (T) -> String
  ) -> [T] {
    var merged: [T] = []
    merged.reserveCapacity(elements.count + inserting.count)
    var next = 0  // the first element of `elements` not yet copied or dropped
    var (removal, insertion) = (0, 0)
    while removal < removing.count || insertion < inserting.count {
      // The removal of a path comes before the insertion of the same path.
      let removes =
        insertion == inserting.count
        || (removal < removing.count
          && compare(removing[removal], path(inserting[insertion])) <= 0)
      let target = removes ? removing[removal] : path(inserting[insertion])
      let position = firstPosition(in: elements, from: next, notBefore: target, path: path)
      merged += elements[next..<position]
      next = position
      if removes {
        if next < elements.count, compare(path(elements[next]), target) == 0 { next += 1 }
        removal += 1
      } else {
        merged.append(inserting[insertion])
        insertion += 1
      }
    }
    merged += elements[next...]
    return merged
  }

  /// Changes at most this many are made in place (a move of the elements
  /// after each); more, by `merged` (one copy of every element).
  static let changesInPlace = 32

  /// Takes out of `elements` those at the paths of `removing` and puts
  /// `inserting` in place, as `merged` does; in place when they are few and
  /// `elements` is not shared: a move of the elements after a change costs
  /// far less than a copy of all of them (figures in Benchmarks/README.md).
  static func update<T>(
    _ elements: inout [T], removing: [String], inserting: [T], path: (T) -> String
  ) {
    guard removing.count + inserting.count <= changesInPlace else {
      elements = merged(elements, removing: removing, inserting: inserting, path: path)
      return
    }
    for target in removing {
      let position = firstPosition(in: elements, notBefore: target, path: path)
      if position < elements.count, compare(path(elements[position]), target) == 0 {
        elements.remove(at: position)
      }
    }
    for element in inserting {
      elements.insert(
        element, at: firstPosition(in: elements, notBefore: path(element), path: path))
    }
  }

  /// Whether `path` is `folder` or under it (a relative path of the folder).
  static func isWithin(_ path: String, folder: String) -> Bool {
    var (path, folder) = (path, folder)
    return path.withUTF8 { path in
      folder.withUTF8 { folder in
        guard path.count >= folder.count, path.prefix(folder.count).elementsEqual(folder) else {
          return false
        }
        return path.count == folder.count || path[folder.count] == UInt8(ascii: "/")
      }
    }
  }
}
