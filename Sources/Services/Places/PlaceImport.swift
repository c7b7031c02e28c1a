import Protocol

/// A row of an import file that was not imported.
public struct PlaceImportRejection: Sendable, Hashable {
  /// The 1-based line of the file where the row (CSV record, GeoJSON feature) starts.
  public let line: Int
  /// Why, as a sentence fragment: `x must be a longitude between -180 and 180`.
  public let reason: String

  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }

  public var json: JSON { ["line": JSON(line), "reason": JSON(reason)] }
}

/// What an import did.
public struct PlaceImportResult: Sendable, Hashable {
  /// The most rejections listed; `rejectedCount` counts them all.
  public static let maxListedRejections = 1_000

  /// Rows added or replaced (a row replacing an earlier one of the file counts too).
  public var imported: Int
  /// The first `maxListedRejections` rejected rows, in file order.
  public var rejected: [PlaceImportRejection]
  /// Every rejected row.
  public var rejectedCount: Int

  public init(imported: Int = 0, rejected: [PlaceImportRejection] = [], rejectedCount: Int = 0) {
    self.imported = imported
    self.rejected = rejected
    self.rejectedCount = rejectedCount
  }

  mutating func reject(line: Int, _ reason: String) {
    rejectedCount += 1
    if rejected.count < Self.maxListedRejections {
      rejected.append(PlaceImportRejection(line: line, reason: reason))
    }
  }

  /// `{imported, rejected: [{line, reason}], rejectedCount}`.
  public var json: JSON {
    [
      "imported": JSON(imported), "rejected": .array(rejected.map(\.json)),
      "rejectedCount": JSON(rejectedCount),
    ]
  }
}

/// How far an import got, reported as it reads.
public struct PlaceImportProgress: Sendable, Hashable {
  /// Bytes of the file read so far.
  public var bytesRead: Int
  public var totalBytes: Int
  /// Rows read so far, imported or rejected.
  public var rows: Int

  public init(bytesRead: Int, totalBytes: Int, rows: Int) {
    self.bytesRead = bytesRead
    self.totalBytes = totalBytes
    self.rows = rows
  }

  /// 0…100.
  public var percentage: Int {
    totalBytes > 0 ? min(100, bytesRead * 100 / totalBytes) : 100
  }
}

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
