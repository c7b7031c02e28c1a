/// The messages the bench sends, as JSON text. The measured requests have ids from 1, so a
/// reply's id indexes the bitmap that checks it.
enum Request {
  static let initializeID = 0
  static let initialize =
    #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientId":"bench"}}"#
  static let initialized = #"{"jsonrpc":"2.0","method":"initialized"}"#
  /// Above any echo id, so a late echo reply cannot pass for the shutdown reply.
  static let shutdownID = 2_000_000_000
  static let shutdown = #"{"jsonrpc":"2.0","id":\#(shutdownID),"method":"shutdown"}"#
  static let exit = #"{"jsonrpc":"2.0","method":"exit"}"#

  static func echo(id: Int) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"daemon/echo","params":{"n":\#(id)}}"#
  }

  /// Echo requests for `ids`, framed back to back in one buffer: formatting happens before the
  /// clock starts, and sending them all is one large write. `ends[i]` is where request i ends.
  static func echoes(_ ids: ClosedRange<Int>, framing: Framing) -> (bytes: [UInt8], ends: [Int]) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(ids.count * 96)
    var ends: [Int] = []
    ends.reserveCapacity(ids.count)
    for id in ids {
      framing.append(echo(id: id), to: &bytes)
      ends.append(bytes.count)
    }
    return (bytes, ends)
  }
}
