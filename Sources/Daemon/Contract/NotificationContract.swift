import Protocol

/// A notification's contract: who sends it, when, and its params. Declared
/// beside the code that sends or handles it; `rpc.discover` lists them all.
struct NotificationContract: Sendable {
  enum Direction: String, Sendable {
    case toServer = "client→server"
    case toClient = "server→client"
  }

  let name: String
  let direction: Direction
  let summary: String
  let params: Schema?

  init(_ name: String, _ direction: Direction, _ summary: String, params: Schema? = nil) {
    self.name = name
    self.direction = direction
    self.summary = summary
    self.params = params
  }

  /// The service whose capabilities list the notification; `nil` for the protocol's own.
  var service: String? { MethodContract.service(ofMethod: name) }
}
