/// Reads an import file and writes its good rows, on the store's writer
/// thread, inside the caller's transaction: bad rows are rejected with
/// their line and reason, the rest commit together (or not at all).
struct PlaceImporter {
  /// Rows between two progress reports and cancellation checks.
  static let reportInterval = 10_000

  let path: String
  let progress: @Sendable (PlaceImportProgress) -> Void

  /// Imports the file into `database` (in its open transaction).
  /// - Throws: `InvalidArgument` (field `path`) for an unreadable file or a
  ///   bad header or structure; `CancellationError`; `SQLiteError`.
  func run(_ database: SQLiteDatabase) throws -> PlaceImportResult {
    let file = try PlaceImportFile(path: path)
    let bytes = file.bytes
    guard !bytes.isEmpty else { throw InvalidArgument(field: "path", reason: "is an empty file") }
    var result = PlaceImportResult()
    let rowOrder = try PlaceRowOrder(database)
    var rows = 0
    let report = { (offset: Int) throws in
      rows += 1
      guard rows % Self.reportInterval == 0 else { return }
      try Task.checkCancellation()
      progress(PlaceImportProgress(bytesRead: offset, totalBytes: bytes.count, rows: rows))
    }
    let insert = { (record: PlaceRecord, line: Int) throws in
      do {
        try rowOrder.add(try record.place())
        result.imported += 1
      } catch let rejection as PlaceRecord.Rejection {
        result.reject(line: line, rejection.reason)
      }
    }
    switch PlaceImportFormat.detect(path: path, bytes: bytes) {
    case .csv:
      var reader = PlaceCSVReader(bytes)
      try Self.readCSV(&reader) { record, line, offset in
        switch record {
        case .success(let record): try insert(record, line)
        case .failure(let rejection): result.reject(line: line, rejection.reason)
        }
        try report(offset)
      }
    case .geoJSON:
      var reader = PlaceGeoJSONReader(bytes)
      try reader.read { line, feature, offset in
        do {
          try insert(try PlaceRecord.fields(ofFeature: feature.get()), line)
        } catch let rejection as PlaceRecord.Rejection {
          result.reject(line: line, rejection.reason)
        }
        try report(offset)
      }
    }
    try rowOrder.finish()
    return result
  }

  /// Reads the header, then hands each record's fields to `body`, or why
  /// they are rejected: the wrong width, a quoted field that never ends.
  private static func readCSV(
    _ reader: inout PlaceCSVReader,
    _ body: (
      _ record: Result<PlaceRecord, PlaceRecord.Rejection>, _ line: Int, _ offset: Int
    ) throws -> Void
  ) throws {
    var fields: [String] = []
    guard reader.next(into: &fields) != nil else {
      throw InvalidArgument(field: "path", reason: "has no CSV header row")
    }
    let columns = fields.map { PlaceRecord.Field.named(String(PlaceRecord.trimmed($0))) }
    let missing = PlaceRecord.Field.allCases.filter { field in
      field.isRequired && !columns.contains(field)
    }
    guard missing.isEmpty else {
      let names = missing.map(\.name).joined(separator: ", ")
      throw InvalidArgument(
        field: "path",
        reason: "has a CSV header without \(names) (required: \(PlaceRecord.Field.requiredNames))")
    }
    while let record = reader.next(into: &fields) {
      if record.isUnterminated {
        let rejection = PlaceRecord.Rejection(reason: "has a quoted field that never ends")
        try body(.failure(rejection), record.line, reader.offset)
        return
      }
      guard fields.count == columns.count else {
        let rejection = PlaceRecord.Rejection(
          reason: "has \(fields.count) fields where the header has \(columns.count)")
        try body(.failure(rejection), record.line, reader.offset)
        continue
      }
      var place = PlaceRecord()
      for (column, value) in zip(columns, fields) {
        // The first column of a name wins.
        guard let column, place.isUnset(column) else { continue }
        place.set(column, value)
      }
      try body(.success(place), record.line, reader.offset)
    }
  }

}

extension PlaceRecord {
  fileprivate func isUnset(_ field: Field) -> Bool {
    switch field {
    case .id: id == nil
    case .placeName: placeName == nil
    case .categoryGroupCode: categoryGroupCode == nil
    case .categoryName: categoryName == nil
    case .phone: phone == nil
    case .addressName: addressName == nil
    case .roadAddressName: roadAddressName == nil
    case .x: x == nil
    case .y: y == nil
    case .placeUrl: placeUrl == nil
    }
  }
}
