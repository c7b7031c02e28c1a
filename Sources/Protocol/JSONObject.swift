/// The members of a JSON object, in the order they were written.
///
/// Objects on the wire are small (a handful of members), so a linear scan
/// beats hashing and keeps the order a client sent. When a name repeats, the
/// last member wins on lookup, as in most parsers; all of them are kept for
/// serialization.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  public typealias Member = (key: String, value: JSON)

  /// The members in wire order.
  public private(set) var members: [Member]

  public init() { members = [] }

  public init(_ members: [(String, JSON)]) {
    self.members = members.map { (key: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, JSON)...) {
    self.init(elements)
  }

  public var count: Int { members.count }
  public var isEmpty: Bool { members.isEmpty }
  public var keys: [String] { members.map(\.key) }

  /// The value of the last member named `key`; setting replaces it in place or appends.
  /// Setting `nil` removes every member of that name.
  public subscript(key: String) -> JSON? {
    get {
      var index = members.endIndex
      while index > members.startIndex {
        index -= 1
        if members[index].key == key { return members[index].value }
      }
      return nil
    }
    set {
      guard let newValue else {
        members.removeAll { $0.key == key }
        return
      }
      if let index = members.lastIndex(where: { $0.key == key }) {
        members[index].value = newValue
      } else {
        members.append((key: key, value: newValue))
      }
    }
  }

  /// Appends without looking for an existing member; the parser's fast path.
  public mutating func append(_ key: String, _ value: JSON) {
    members.append((key: key, value: value))
  }

  public mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

  public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.count == rhs.members.count
      && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
