/// How search results are ordered.
public enum PlaceSort: String, CaseIterable, Sendable, Hashable {
  /// Nearest first, by whole metres from the centre; equal distances by id.
  case distance
  /// Kakao's default. Without a keyword there is nothing to match, so this is
  /// the places' standing: the order of their ids (shorter first, then byte by
  /// byte, which is numeric order for Kakao's decimal ids: a lower id is a
  /// place listed earlier). The embedded and remote backends agree on it only
  /// roughly: Kakao also weighs popularity, which it does not publish.
  case accuracy
}
