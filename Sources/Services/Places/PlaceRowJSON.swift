import Protocol

/// Makes a place's JSON object straight from its row in the places file,
/// the same text `Place.json` serializes to, without making the `Place`, its
/// strings or a `JSON` tree first: a page of 15 places is 180 values, and
/// making and freeing them was a third of a 1 km search's round trip.
enum PlaceRowJSON {
  /// The place of `row` (the columns of `PlaceSchema.columns`) in the
  /// member order of `Place.json`, its distance left out. Written in
  /// `scratch` (reused from row to row), then copied to an entry of its own
  /// size: the cache keeps it, and counts what it holds.
  /// - Throws: `SQLiteError` for a column of the wrong type or an unknown category code.
  static func entry(_ row: SQLiteRow, scratch output: inout [UInt8]) throws
    -> PlaceRowCache.Entry
  {
    output.removeAll(keepingCapacity: true)
    let category = try row.withText(3) { code in
      Self.categories.firstIndex { $0.code.elementsEqual(code) }
    }
    guard let category else {
      let code = try row.text(3)
      throw SQLiteError(code: 1, message: "unknown category group code \(code) in places")
    }
    output.append(contentsOf: #"{"id":"#.utf8)
    try text(row, 1, into: &output)
    output.append(contentsOf: #","placeName":"#.utf8)
    try text(row, 2, into: &output)
    output.append(contentsOf: Self.categories[category].members)
    output.append(contentsOf: #","categoryName":"#.utf8)
    try text(row, 4, into: &output)
    output.append(contentsOf: #","phone":"#.utf8)
    try text(row, 5, into: &output)
    output.append(contentsOf: #","addressName":"#.utf8)
    try text(row, 6, into: &output)
    output.append(contentsOf: #","roadAddressName":"#.utf8)
    try text(row, 7, into: &output)
    output.append(contentsOf: #","x":"#.utf8)
    JSONWriter.writeNumber(try row.double(8), into: &output)
    output.append(contentsOf: #","y":"#.utf8)
    JSONWriter.writeNumber(try row.double(9), into: &output)
    output.append(contentsOf: #","distance":"#.utf8)
    let distanceAt = output.count
    output.append(contentsOf: #","placeUrl":"#.utf8)
    try text(row, 10, into: &output)
    output.append(UInt8(ascii: "}"))
    return PlaceRowCache.Entry(text: Array(output[...]), distanceAt: distanceAt)
  }

  /// Each category's code, and its two members as they are written
  /// (`,"categoryGroupCode":…,"categoryGroupName":…`), made once: a page
  /// of places repeats a few categories many times.
  private static let categories: [(code: [UInt8], members: [UInt8])] = PlaceCategory.allCases.map {
    var members = Array(#","categoryGroupCode":"#.utf8)
    JSONWriter.writeString($0.code, into: &members)
    members.append(contentsOf: #","categoryGroupName":"#.utf8)
    JSONWriter.writeString($0.name, into: &members)
    return (Array($0.code.utf8), members)
  }

  private static func text(_ row: SQLiteRow, _ index: Int, into output: inout [UInt8]) throws {
    try row.withText(index) { JSONWriter.writeString(utf8: $0, into: &output) }
  }
}
