import Protocol

/// `$/progress` notifications for one request's long work (LSP work-done progress).
struct ProgressReporter: Sendable {
  let token: JSON
  let notify: @Sendable (_ method: String, _ params: JSON?) -> Void

  /// The reporter for a request whose params carry a string or integer `workDoneToken`.
  init?(params: JSON?, notify: @escaping @Sendable (String, JSON?) -> Void) {
    guard let token = params?["workDoneToken"], token.stringValue != nil || token.intValue != nil
    else { return nil }
    self.token = token
    self.notify = notify
  }

  func begin(title: String, message: String? = nil, percentage: Int? = nil) {
    send(kind: "begin", title: title, message: message, percentage: percentage)
  }

  func report(message: String? = nil, percentage: Int? = nil) {
    send(kind: "report", title: nil, message: message, percentage: percentage)
  }

  func end(message: String? = nil) {
    send(kind: "end", title: nil, message: message, percentage: nil)
  }

  private func send(kind: String, title: String?, message: String?, percentage: Int?) {
    var value: JSONObject = ["kind": JSON(kind)]
    if let title { value["title"] = JSON(title) }
    if let message { value["message"] = JSON(message) }
    if let percentage { value["percentage"] = JSON(min(max(percentage, 0), 100)) }
    notify("$/progress", ["token": token, "value": .object(value)])
  }
}
