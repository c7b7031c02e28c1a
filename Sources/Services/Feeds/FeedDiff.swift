/// The steps that turn one list of items into another, matched by id: the
/// items that stay in the same relative order (a longest increasing
/// subsequence) stay; the others are removed, then the new and moved ones
/// inserted and the changed ones updated, front to back.
enum FeedDiff {
  static func steps(from old: [FeedItem], to new: [FeedItem]) -> [FeedItemOp] {
    var newIndex: [String: Int] = [:]
    newIndex.reserveCapacity(new.count)
    for (index, item) in new.enumerated() where newIndex.updateValue(index, forKey: item.id) != nil
    {
      return replacingAll(old, new)
    }
    var oldIds = Set<String>()
    for item in old where !oldIds.insert(item.id).inserted { return replacingAll(old, new) }

    let stays = stayingIndices(old.map { newIndex[$0.id] })
    var steps: [FeedItemOp] = []
    // Removals, front to back: each index counts the removals before it.
    var removed = 0
    var index = 0
    while index < old.count {
      guard !stays[index] else {
        index += 1
        continue
      }
      let start = index
      while index < old.count && !stays[index] { index += 1 }
      steps.append(.remove(index: start - removed, count: index - start))
      removed += index - start
    }
    // The list is now the staying items in their new order: insert and
    // update front to back, so that everything before `index` is final.
    var staying: [String: Int] = [:]
    for (position, item) in old.enumerated() where stays[position] { staying[item.id] = position }
    /// Whether the staying item at `index` of the new list has a new value.
    func isChanged(_ index: Int) -> Bool {
      guard let position = staying[new[index].id] else { return false }
      return old[position].json != new[index].json
    }
    index = 0
    while index < new.count {
      let start = index
      if staying[new[index].id] == nil {
        while index < new.count && staying[new[index].id] == nil { index += 1 }
        steps.append(.insert(index: start, items: Array(new[start..<index])))
      } else if isChanged(index) {
        while index < new.count && staying[new[index].id] != nil && isChanged(index) { index += 1 }
        steps.append(.update(index: start, items: Array(new[start..<index])))
      } else {
        index += 1
      }
    }
    return steps
  }

  /// For each old item, whether it stays: the longest run of old items whose
  /// new positions increase (items gone from the new list never stay).
  static func stayingIndices(_ positions: [Int?]) -> [Bool] {
    // Patience sorting: tails[k] is the old index ending the best run of length k + 1,
    // and tailPositions[k] its new position.
    var tails: [Int] = []
    var tailPositions: [Int] = []
    var previous = [Int](repeating: -1, count: positions.count)
    for (index, position) in positions.enumerated() {
      guard let position else { continue }
      var (low, high) = (0, tails.count)
      while low < high {
        let middle = (low + high) / 2
        if tailPositions[middle] < position { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count {
        tails.append(index)
        tailPositions.append(position)
      } else {
        tails[low] = index
        tailPositions[low] = position
      }
    }
    var stays = [Bool](repeating: false, count: positions.count)
    var index = tails.last ?? -1
    while index >= 0 {
      stays[index] = true
      index = previous[index]
    }
    return stays
  }

  /// Everything out, everything in: for lists whose ids repeat.
  private static func replacingAll(_ old: [FeedItem], _ new: [FeedItem]) -> [FeedItemOp] {
    var steps: [FeedItemOp] = []
    if !old.isEmpty { steps.append(.remove(index: 0, count: old.count)) }
    if !new.isEmpty { steps.append(.insert(index: 0, items: new)) }
    return steps
  }
}
