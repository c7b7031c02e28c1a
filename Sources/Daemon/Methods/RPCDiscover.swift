import Protocol

/// `rpc.discover`: the OpenRPC document (`openrpc.json`, embedded at build time).
enum RPCDiscover {
  /// Parsed once, on first use.
  static let document: JSON = (try? JSONParser.parse(OpenRPCDocument.text)) ?? .null

  static let method = Method.inline("rpc.discover") { _, _ in document }
}
