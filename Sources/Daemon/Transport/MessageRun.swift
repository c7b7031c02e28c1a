/// Message bodies (JSON texts, unframed) written back to back into one
/// buffer: a change that reaches many feeds costs one allocation for all of
/// their notifications, not one each.
struct MessageRun: Sendable {
  /// The bodies, back to back.
  private var bytes: [UInt8] = []
  /// Where each body ends in `bytes`.
  private var ends: [Int] = []

  init(reservingCapacity capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  var isEmpty: Bool { ends.isEmpty }

  /// Appends the body that `write` appends to the buffer it is given.
  mutating func append(_ write: (inout [UInt8]) -> Void) {
    write(&bytes)
    ends.append(bytes.count)
  }

  /// The bodies, in order.
  var bodies: [ArraySlice<UInt8>] {
    zip([0] + ends.dropLast(), ends).map { bytes[$0..<$1] }
  }
}
