import Protocol

/// `photos/image {id}` → `{path, contentType, bytes, cached}`: a local file
/// holding the photo's image (downloaded into the disk cache first for a
/// remote photo).
enum PhotosImage {
  static let id: Param<String> = .requiredString("id", maxLength: 200, "a photo's id")

  static let contract = MethodContract(
    "photos/image",
    "A local file holding the photo's image (downloaded into the disk cache for remote photos). "
      + "Unknown id: -32001.",
    params: [id], result: .component(PhotoSchemas.photoImage))

  static let method = Method.task(contract) { params, context in
    try await context.daemon.services.photos.image(id: params[id]).json
  }
}
