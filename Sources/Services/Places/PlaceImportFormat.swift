/// The two file formats an import reads.
///
/// - **CSV** (RFC 4180: commas, `"` quoting with `""` inside, LF or CRLF, an
///   optional UTF-8 BOM): a header row naming Place fields, `id`,
///   `placeName`, `categoryGroupCode`, `x` and `y` required, `categoryName`,
///   `phone`, `addressName`, `roadAddressName`, `placeUrl` optional (Kakao's
///   snake_case names work too; `categoryGroupName`, `distance` and unknown
///   columns are ignored). Blank lines are skipped.
/// - **GeoJSON**: a FeatureCollection of Point features whose properties use
///   the same names; the point's coordinates are x and y, and the feature's
///   own `id` stands in for a missing `properties.id`.
///
/// `.csv` files are CSV, `.geojson` and `.json` files GeoJSON; other names
/// are GeoJSON when their first character is `{`.
public enum PlaceImportFormat: String, Sendable, Hashable {
  case csv
  case geoJSON

  static func detect(path: String, bytes: UnsafeRawBufferPointer) -> PlaceImportFormat {
    let lowered = path.lowercased()
    if lowered.hasSuffix(".csv") { return .csv }
    if lowered.hasSuffix(".geojson") || lowered.hasSuffix(".json") { return .geoJSON }
    var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    return offset < bytes.count && bytes[offset] == UInt8(ascii: "{") ? .geoJSON : .csv
  }
}
