import Protocol

/// `photos/image {id}` → `{path, contentType, bytes, cached}`: a local file
/// holding the photo's image (downloaded into the disk cache first for a
/// remote photo).
enum PhotosImage {
  static let method = Method.task("photos/image") { params, context in
    let id = try Params(params).requiredString("id", maxLength: 200)
    return try await context.daemon.services.photos.image(id: id).json
  }
}
