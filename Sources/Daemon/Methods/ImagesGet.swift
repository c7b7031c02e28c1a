import Protocol
import Services

/// `images/get {url}` → `{url, path, contentType, bytes, cached, width, height}`:
/// a local file holding the image of a URL the daemon handed out (a photo's
/// `url`, a product's `imageUrl`), downloaded into the one image cache for
/// `http` and `https`, the file itself for `file:`.
enum ImagesGet {
  static let url: Param<String> = .requiredString(
    "url", maxLength: 8_192,
    "an image URL the daemon handed out: a photo's url or a product's imageUrl")

  static let result = SchemaComponent(
    "LocalImage",
    .object([
      Member("url", .string, required: true, "the URL asked for"),
      Member(
        "path", .string, required: true,
        "a local file holding the image: the file itself for a file: URL, else a file of the "
          + "bounded disk cache (read it soon: it stays until evicted)"),
      Member(
        "contentType", .choice(["image/jpeg", "image/png", "image/gif", "image/webp"]),
        required: true),
      Member("bytes", .integer, required: true),
      Member("cached", .boolean, required: true, "true when no download was needed"),
      Member(
        "width", .nullable(.integer), required: true,
        "as stored; null only when the file was evicted before its header was read"),
      Member("height", .nullable(.integer), required: true),
    ]))

  static let contract = MethodContract(
    "images/get",
    "A local file holding the image of a URL the daemon handed out (photos and products), "
      + "downloaded into the bounded disk cache (--image-cache-mb). A URL it never handed out: "
      + "-32602. A download that fails, is too large or is not an image: -32020 or -32021 "
      + "naming the URL's host.",
    params: [url], result: .component(result))

  static let method = Method.task(contract) { params, context in
    try await context.daemon.services.images.image(url: params[url]).json
  }
}
