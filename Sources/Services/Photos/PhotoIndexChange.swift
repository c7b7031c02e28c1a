/// A photo of the index that was added, changed or removed by a batch of
/// changed paths (`PhotoIndex.apply(changedPaths:)`).
public struct PhotoIndexChange: Sendable, Hashable {
  /// The photo as it was; nil when it is new.
  public let before: IndexedPhoto?
  /// The photo as it is; nil when it is gone (its file removed, or no longer an image).
  public let after: IndexedPhoto?

  /// The path under the folder.
  public var relativePath: String { after?.relativePath ?? before?.relativePath ?? "" }

  /// The changes from `before` to `after`, two lists of photos in `PathOrder`
  /// of their paths: a photo in both, the same, is no change.
  static func pairing(_ before: [IndexedPhoto], _ after: [IndexedPhoto]) -> [PhotoIndexChange] {
    var changes: [PhotoIndexChange] = []
    var (old, new) = (0, 0)
    while old < before.count || new < after.count {
      // Which comes first: the next photo before, or the next after.
      var order = old == before.count ? 1 : -1
      if old < before.count, new < after.count {
        order = PathOrder.compare(before[old].relativePath, after[new].relativePath)
      }
      if order < 0 {
        changes.append(PhotoIndexChange(before: before[old], after: nil))
        old += 1
      } else if order > 0 {
        changes.append(PhotoIndexChange(before: nil, after: after[new]))
        new += 1
      } else {
        if before[old] != after[new] {
          changes.append(PhotoIndexChange(before: before[old], after: after[new]))
        }
        old += 1
        new += 1
      }
    }
    return changes
  }
}
