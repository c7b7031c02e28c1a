import Protocol

/// Reads the features of a GeoJSON FeatureCollection in place, one at a
/// time, with the line each starts on: only one feature is ever parsed into
/// a `JSON` value, so a file of a million features needs no more memory
/// than one.
///
/// The collection's own structure must be sound (an object with a
/// `"type": "FeatureCollection"` and a `features` array); a feature that is
/// not valid JSON is reported to the caller as a rejection.
struct PlaceGeoJSONReader {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0
  /// The line at `lineOffset`; lines are counted forward only, as the reader moves.
  private var line = 1
  private var lineOffset = 0

  /// The deepest nesting of a feature (a Point needs 4).
  static let maxDepth = 64

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  /// Calls `body` with each feature's line, the feature (or why it is not
  /// JSON) and how many bytes have been read.
  /// - Throws: `InvalidArgument` (field `path`) when the file is not a
  ///   FeatureCollection; whatever `body` throws.
  mutating func read(
    _ body: (_ line: Int, _ feature: Result<JSON, PlaceRecord.Rejection>, _ offset: Int) throws
      -> Void
  ) throws {
    skipWhitespace()
    guard consume(UInt8(ascii: "{")) else { throw malformed("it does not start with {") }
    var sawFeatures = false
    var type: String?
    skipWhitespace()
    if !consume(UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        let key = try readKey()
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw malformed("a : is missing after \"\(key)\"") }
        skipWhitespace()
        switch key {
        case "features":
          sawFeatures = true
          try readFeatures(body)
        case "type":
          let start = offset
          try skipValue()
          type = (try? JSONParser.parse(slice(start..<offset)))?.stringValue
        default:
          try skipValue()
        }
        skipWhitespace()
        if consume(UInt8(ascii: ",")) { continue }
        guard consume(UInt8(ascii: "}")) else { throw malformed("a , or } is missing") }
        break
      }
    }
    guard type == "FeatureCollection" else {
      throw InvalidArgument(
        field: "path",
        reason: "is not a GeoJSON FeatureCollection (its type is not \"FeatureCollection\")")
    }
    guard sawFeatures else { throw malformed("it has no features array") }
  }

  private mutating func readFeatures(
    _ body: (Int, Result<JSON, PlaceRecord.Rejection>, Int) throws -> Void
  ) throws {
    guard consume(UInt8(ascii: "[")) else { throw malformed("features is not an array") }
    skipWhitespace()
    if consume(UInt8(ascii: "]")) { return }
    while true {
      skipWhitespace()
      let start = offset
      try skipValue()
      let featureLine = lineNumber(at: start)
      let feature: Result<JSON, PlaceRecord.Rejection>
      do {
        feature = .success(try JSONParser.parse(slice(start..<offset), maxDepth: Self.maxDepth))
      } catch {
        feature = .failure(PlaceRecord.Rejection(reason: "is not valid JSON (\(error))"))
      }
      try body(featureLine, feature, offset)
      skipWhitespace()
      if consume(UInt8(ascii: ",")) { continue }
      guard consume(UInt8(ascii: "]")) else { throw malformed("a , or ] is missing in features") }
      return
    }
  }

  // MARK: - Scanning

  private func malformed(_ detail: String) -> InvalidArgument {
    InvalidArgument(
      field: "path",
      reason: "is not a GeoJSON FeatureCollection: \(detail) (line \(lineNumberPeek(at: offset)))")
  }

  private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeRawBufferPointer(rebasing: bytes[range]).bindMemory(to: UInt8.self)
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    guard offset < bytes.count, bytes[offset] == byte else { return false }
    offset += 1
    return true
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0A, 0x0D: offset += 1
      default: return
      }
    }
  }

  private mutating func readKey() throws -> String {
    let start = offset
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
      throw malformed("a member name is missing")
    }
    try skipString()
    guard let key = (try? JSONParser.parse(slice(start..<offset)))?.stringValue else {
      throw malformed("a member name is not a valid string")
    }
    return key
  }

  /// Moves past the string starting at `offset` (its opening quote).
  private mutating func skipString() throws {
    offset += 1
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "\\"): offset += 2
      case UInt8(ascii: "\""):
        offset += 1
        return
      default: offset += 1
      }
    }
    throw malformed("a string never ends")
  }

  /// Moves past one JSON value: its brackets balanced, its strings skipped;
  /// the value itself is checked later, by the parser.
  private mutating func skipValue() throws {
    guard offset < bytes.count else { throw malformed("a value is missing") }
    switch bytes[offset] {
    case UInt8(ascii: "\""):
      try skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while offset < bytes.count {
        switch bytes[offset] {
        case UInt8(ascii: "\""):
          try skipString()
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            offset += 1
            return
          }
        default: break
        }
        offset += 1
      }
      throw malformed("a bracket is never closed")
    default:
      let start = offset
      while offset < bytes.count {
        switch bytes[offset] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
          guard offset > start else { throw malformed("a value is missing") }
          return
        default: offset += 1
        }
      }
    }
  }

  /// The line of `target`, counting forward from the last one asked for.
  private mutating func lineNumber(at target: Int) -> Int {
    line = lineNumberPeek(at: target)
    lineOffset = max(lineOffset, min(target, bytes.count))
    return line
  }

  private func lineNumberPeek(at target: Int) -> Int {
    var count = line
    var index = lineOffset
    let end = min(target, bytes.count)
    while index < end {
      if bytes[index] == 0x0A { count += 1 }
      index += 1
    }
    return count
  }
}

extension PlaceRecord {
  /// The fields of a GeoJSON Point feature: x and y from its coordinates,
  /// the rest from its properties (the feature's `id` when they have none).
  static func fields(ofFeature feature: JSON) throws(Rejection) -> PlaceRecord {
    guard case .object(let object) = feature, object["type"]?.stringValue == "Feature" else {
      throw Rejection(reason: "is not a GeoJSON Feature")
    }
    guard let geometry = object["geometry"]?.objectValue,
      geometry["type"]?.stringValue == "Point"
    else { throw Rejection(reason: "geometry is not a Point") }
    guard let coordinates = geometry["coordinates"]?.arrayValue, coordinates.count >= 2,
      let x = coordinates[0].doubleValue, let y = coordinates[1].doubleValue
    else { throw Rejection(reason: "geometry has no [x, y] coordinates") }
    var record = PlaceRecord()
    record.x = .number(x)
    record.y = .number(y)
    if let properties = object["properties"], !properties.isNull {
      guard let members = properties.objectValue else {
        throw Rejection(reason: "properties is not an object")
      }
      for (key, value) in members {
        guard let field = Field.named(key), field != .x, field != .y, !value.isNull else {
          continue
        }
        if let text = value.stringValue {
          record.set(field, text)
        } else if field == .id, let number = value.numberValue {
          record.set(field, number.text)
        } else {
          throw Rejection(reason: "\(key) is not a string")
        }
      }
    }
    if record.id == nil {
      if let id = object["id"]?.stringValue {
        record.id = id
      } else if let number = object["id"]?.numberValue {
        record.id = number.text
      }
    }
    return record
  }
}
