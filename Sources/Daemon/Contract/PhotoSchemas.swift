import Protocol

/// The shapes of the photos service's results.
enum PhotoSchemas {
  static let photo = SchemaComponent(
    "Photo",
    .object([
      Member("id", .string, required: true, "stable across restarts"),
      Member(
        "author", .nullable(.string), required: true,
        "from the file's metadata (EXIF Artist, PNG Author, GIF XMP dc:creator) or the upstream"),
      Member("width", .integer, required: true, "as stored (EXIF rotation is not applied)"),
      Member("height", .integer, required: true),
      Member(
        "url", .string, required: true,
        "file:// for folder photos, the download URL for picsum"),
      Member("source", .choice(["folder", "picsum"]), required: true),
      Member(
        "bytes", .nullable(.integer), required: true,
        "the image file's size; null for picsum (known once photos/image downloaded it)"),
      Member(
        "pageUrl", .nullable(.string), required: true,
        "picsum: the photo's page (the upstream's url); null for folder photos"),
    ]))

  static let photoPage = SchemaComponent(
    "PhotoPage",
    .object([
      Member("items", .array(of: .reference(photo)), required: true),
      Member("page", .integer, required: true),
      Member("nextPage", .nullable(.integer), required: true, "null on the last page"),
    ]))

  static let photoImage = SchemaComponent(
    "PhotoImage",
    .object([
      Member(
        "path", .string, required: true,
        "a local file holding the image; for remote photos a file of the bounded disk cache"),
      Member(
        "contentType", .choice(["image/jpeg", "image/png", "image/gif", "image/webp"]),
        required: true),
      Member("bytes", .integer, required: true),
      Member("cached", .boolean, required: true, "true when no download was needed"),
    ]))
}
