/// Where `JSONWriter` writes bytes: an array, or a `JSONBuffer` for text
/// written in many small pieces. `JSONWriter`'s writers are `@inlinable`, so
/// that each module that writes gets them for its output type, appends inlined.
public protocol JSONOutput: ~Copyable {
  /// How many bytes have been written.
  var count: Int { get }
  mutating func append(_ byte: UInt8)
  mutating func append(bytes: UnsafeBufferPointer<UInt8>)
  /// Takes back what was written from `index` on.
  mutating func removeAll(from index: Int)
}

extension Array: JSONOutput where Element == UInt8 {
  @inlinable
  public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
    append(contentsOf: bytes)
  }

  @inlinable
  public mutating func removeAll(from index: Int) {
    removeSubrange(index...)
  }
}
