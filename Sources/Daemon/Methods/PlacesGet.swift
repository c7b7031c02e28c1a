import Protocol

/// `places/get {id}` → Place (without distance).
enum PlacesGet {
  static let id: Param<String> = .requiredString("id", maxLength: 100, "the place's id")

  static let contract = MethodContract(
    "places/get",
    "One place. Unknown id: -32001. With the remote backend, places that recent searches "
      + "returned.",
    params: [id], result: .component(PlaceSchemas.place))

  static let method = Method.task(contract) { params, context in
    try await context.daemon.services.places.get(id: params[id]).json
  }
}
