import Protocol

/// `rpc.discover`: the OpenRPC document, written from the declarations.
enum RPCDiscover {
  static let contract = MethodContract(
    "rpc.discover", "This OpenRPC document.",
    result: MethodResult("OpenRPC", .object([], strict: false)))

  static let method = Method.inline(contract) { _, _ in OpenRPCDocument.json }
}
