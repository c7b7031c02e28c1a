/// Bytes written in many small pieces, such as the members of a page's rows:
/// an append checks for room and copies. An array's append also checks that
/// its storage is not shared and copies through the path of any sequence,
/// several times the instructions for a piece of a few bytes
/// (Benchmarks/README.md, "instructions counted").
///
/// Noncopyable: it owns its memory, freed when it goes.
public struct JSONBuffer: ~Copyable, JSONOutput {
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  @usableFromInline var written = 0

  /// How many bytes have been written.
  public var count: Int { written }

  /// An empty buffer with room for `capacity` bytes before it grows.
  public init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit {
    start.deallocate()
  }

  @inlinable @inline(__always)
  public mutating func append(_ byte: UInt8) {
    if _slowPath(written == capacity) { grow(toAdd: 1) }
    start[written] = byte
    written += 1
  }

  @inlinable @inline(__always)
  public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if _slowPath(capacity - written < bytes.count) { grow(toAdd: bytes.count) }
    (start + written).initialize(from: source, count: bytes.count)
    written += bytes.count
  }

  public mutating func removeAll(from index: Int) {
    precondition(index >= 0 && index <= written, "removeAll(from:) beyond the written bytes")
    written = index
  }

  /// Moves the bytes to memory twice as large (or large enough for
  /// `added` more).
  @usableFromInline
  mutating func grow(toAdd added: Int) {
    let (needed, overflow) = written.addingReportingOverflow(added)
    precondition(!overflow, "JSONBuffer beyond Int.max bytes")
    capacity = max(capacity * 2, needed)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    moved.initialize(from: start, count: written)
    start.deallocate()
    start = moved
  }

  /// The bytes written, as an array.
  public var bytes: [UInt8] {
    Array(UnsafeBufferPointer(start: start, count: written))
  }
}
