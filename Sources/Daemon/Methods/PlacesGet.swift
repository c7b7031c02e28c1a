import Protocol

/// `places/get {id}` → Place (without distance).
enum PlacesGet {
  static let method = Method.task("places/get") { params, context in
    let id = try Params(params).requiredString("id", maxLength: 100)
    return try await context.daemon.services.places.get(id: id).json
  }
}
