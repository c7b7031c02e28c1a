import Protocol

/// The OpenRPC document of the daemon, written from the declarations: the
/// method contracts, the notification contracts and the named shapes they
/// refer to. `rpc.discover` serves it; `catalogd openrpc` prints it into
/// `openrpc.json`, which the clients' generators read (a test checks the
/// file is up to date).
enum OpenRPCDocument {
  static let methods: [MethodContract] =
    [LifecycleContracts.initialize, LifecycleContracts.shutdown]
    + MethodRegistry.all.map(\.contract)

  /// The wire errors: code, message, what `data` holds.
  static let errors: [(code: Int, message: String, data: String)] = [
    (
      RPCError.parseErrorCode, "Parse error",
      "bad framing, bad JSON, a message too large or too deep; data {reason}"
    ),
    (
      RPCError.invalidRequestCode, "Invalid request",
      "not a JSON-RPC 2.0 request, an empty batch, a request after shutdown; data {reason}"
    ),
    (RPCError.methodNotFoundCode, "Method not found", "data {method}"),
    (
      RPCError.invalidParamsCode, "Invalid params",
      "missing, wrong type, out of range or unknown; data {field, reason}, and for an unknown "
        + "member expected (the names the method takes) and suggestion (the one meant, for a near "
        + "miss)"
    ),
    (RPCError.internalErrorCode, "Internal error", "logged on the daemon's stderr; no data"),
    (
      RPCError.serverNotInitializedCode, "Server not initialized",
      "a request other than initialize before initialize"
    ),
    (
      RPCError.requestCancelledCode, "Request cancelled",
      "the request was cancelled with $/cancelRequest"
    ),
    (
      RPCError.notFoundCode, "Not found",
      "data {resource, id}; id is null when a filter matched nothing"
    ),
    (RPCError.conflictCode, "Conflict", "stale expectedVersion; data {currentVersion}"),
    (
      RPCError.upstreamUnavailableCode, "Upstream unavailable",
      "connect, TLS, DNS or timeout failure, or the data dir's database locked by another daemon "
        + "past the retries; data {service, retryable: true, reason}"
    ),
    (
      RPCError.upstreamErrorCode, "Upstream error",
      "bad status or malformed payload; data {service, status?, upstreamMessage?}; when the "
        + "upstream said why in words of its own (a validation text), message is those words and "
        + "data.summary the generic text"
    ),
    (
      RPCError.storageFullCode, "Storage full",
      "a change was not saved: the disk that holds the data is full; data {retryable: true, "
        + "reason}"
    ),
  ]

  static let description =
    "Products, photos, places and quotes over JSON-RPC 2.0 on stdin/stdout. Framing: LSP "
    + "Content-Length headers or NDJSON, detected from the first bytes. Notifications caused by a "
    + "request are written before its response."

  /// Built once, on first use.
  static let json: JSON = {
    var components = ComponentCollector()
    let methodEntries: [JSON] = methods.map { contract in
      [
        "name": JSON(contract.name),
        "summary": JSON(contract.summary),
        "paramStructure": contract.takesAnyParams ? "either" : "by-name",
        "params": .array(
          contract.params.members.map { member in
            components.collect(member.schema)
            return [
              "name": JSON(member.name), "schema": member.paramSchema,
              "description": JSON(member.description ?? ""), "required": JSON(member.required),
            ]
          }),
        "result": {
          components.collect(contract.result.schema)
          return ["name": JSON(contract.result.name), "schema": contract.result.schema.jsonSchema]
        }(),
      ]
    }
    let notificationEntries: [JSON] = NotificationRegistry.all.map { contract in
      var entry: JSONObject = [
        "name": JSON(contract.name), "direction": JSON(contract.direction.rawValue),
        "summary": JSON(contract.summary),
      ]
      if let params = contract.params {
        components.collect(params)
        entry["params"] = params.jsonSchema
      }
      return .object(entry)
    }
    return [
      "openrpc": "1.3.2",
      "info": [
        "title": "catalogd",
        "version": JSON(Version.current),
        "description": JSON(description),
        "license": ["name": "MIT"],
      ],
      "methods": .array(methodEntries),
      "components": [
        "schemas": .object(JSONObject(components.found.map { ($0.name, $0.schema.jsonSchema) })),
        "errors": .object(
          JSONObject(
            errors.map { error in
              (
                error.message.split(separator: " ").map {
                  $0.prefix(1).uppercased() + $0.dropFirst()
                }
                .joined(),
                [
                  "code": JSON(error.code), "message": JSON(error.message),
                  "data": JSON(error.data),
                ]
              )
            })),
      ],
      "x-notifications": .array(notificationEntries),
    ]
  }()

  /// The document as `openrpc.json` holds it: indented, ending in a newline.
  static var text: String {
    var bytes: [UInt8] = []
    JSONWriter.writeIndented(json, into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The named shapes a document refers to, each once, in the order first met.
struct ComponentCollector {
  private(set) var found: [SchemaComponent] = []
  /// Names given to two different shapes: the document would publish only the first.
  private(set) var conflicts: [String] = []

  mutating func collect(_ schema: Schema) {
    switch schema {
    case .reference(let component):
      if let known = found.first(where: { $0.name == component.name }) {
        if known.schema.jsonSchema != component.schema.jsonSchema {
          conflicts.append(component.name)
        }
        return
      }
      found.append(component)
      collect(component.schema)
    case .array(let items, _, _): collect(items)
    case .object(let shape):
      for member in shape.members { collect(member.schema) }
    case .map(let values): collect(values)
    case .nullable(let inner), .described(let inner, _), .titled(_, let inner),
      .dependent(let inner):
      collect(inner)
    case .oneOf(let schemas):
      for schema in schemas { collect(schema) }
    case .any, .null, .boolean, .integer, .number, .string, .choice, .constant: return
    }
  }
}
