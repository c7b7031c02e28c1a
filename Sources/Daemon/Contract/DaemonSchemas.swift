import Protocol

/// The shapes of the daemon's own results and notifications.
enum DaemonSchemas {
  static let backendKind = Schema.choice(["embedded", "remote", "postgres"])

  static let serviceCapabilities = SchemaComponent(
    "ServiceCapabilities",
    .object([
      Member("backend", backendKind, required: true),
      Member("methods", .array(of: .string), required: true),
      Member("notifications", .array(of: .string), required: true),
    ]))

  static let capabilities = SchemaComponent(
    "Capabilities",
    .object([
      Member(
        "services", .map(of: .reference(serviceCapabilities)), required: true,
        "each hosted service by name (quotes, products, …)"),
      Member(
        "limits",
        .object([
          Member("maxMessageBytes", .integer, required: true),
          Member("maxDepth", .integer, required: true),
          Member("maxInFlight", .integer, required: true),
        ]), required: true),
      Member("framings", .array(of: .choice(["lsp", "ndjson"])), required: true),
      Member("cancelRequest", .boolean, required: true),
      Member("workDoneProgress", .boolean, required: true),
    ]))

  static let progressValue = SchemaComponent(
    "ProgressValue",
    .object([
      Member("kind", .choice(["begin", "report", "end"]), required: true),
      Member("title", .string),
      Member("message", .string),
      Member("percentage", .integer(minimum: 0, maximum: 100)),
    ]))

  /// A `$/progress` token or a request id: a string or an integer.
  static let token = Schema.oneOf([.string, .integer])
}
