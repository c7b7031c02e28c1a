/// A JSON text already written out, for a result too hot to build as a
/// `JSON` tree first (a page of places: hundreds of values, most of them
/// read from SQLite and written once).
///
/// Whoever makes one vouches that `bytes` is one compact JSON value,
/// written with `JSONWriter`; it is sent as it is.
public struct EncodedJSON: Sendable {
  public let bytes: [UInt8]

  public init(writtenBy bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The tree's text, for the same result when it comes as a tree.
  public init(_ value: JSON) {
    bytes = value.serialized()
  }
}
