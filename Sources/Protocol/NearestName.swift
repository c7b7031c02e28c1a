/// The declared name a client most likely meant, for "did you mean …?".
public enum NearestName {
  /// The one name within a small edit distance of `name` (a letter dropped,
  /// added, changed or two swapped; case ignored); `nil` when none or
  /// several are that near.
  public static func suggestion(for name: String, among names: [String]) -> String? {
    let wanted = Array(name.lowercased())
    let limit = wanted.count <= 3 ? 1 : 2
    var best: (name: String, distance: Int)?
    var tied = false
    for candidate in names where candidate != name {
      let distance = editDistance(wanted, Array(candidate.lowercased()))
      guard distance <= limit else { continue }
      if let current = best, distance >= current.distance {
        if distance == current.distance { tied = true }
        continue
      }
      best = (candidate, distance)
      tied = false
    }
    return tied ? nil : best?.name
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions
  /// and swaps of neighbours each cost one.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var beforePrevious = previous
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
