/// Writes places so that the rows new to the file take their keys, and so
/// their places in the file, in spatial order: by category, then along a
/// Z-order curve of their position. A search's page is the few places
/// nearest a point, and reading it fetches each row by key
/// (`PlacePageReader`); in the order a file lists them, those rows lie on as
/// many pages of the file as there are rows, in this order on a few.
///
/// The places go to a temporary table first (the last of an id wins, as the
/// upsert in file order did), then into `places` in one ordered statement.
/// A row already in the file is updated in place and keeps its key: keys
/// never move, since another daemon's index holds them.
struct PlaceRowOrder {
  /// Named in `PlaceStore.rowOrder`: files imported with an older order keep it.
  static let name = "z16"

  private let database: SQLiteDatabase

  /// Starts staging on `database`, inside its open write transaction.
  init(_ database: SQLiteDatabase) throws {
    self.database = database
    try database.execute("DROP TABLE IF EXISTS temp.places_staged")
    try database.execute(
      """
      CREATE TEMP TABLE places_staged (
        id TEXT PRIMARY KEY, z INTEGER NOT NULL, place_name TEXT NOT NULL,
        category_group_code TEXT NOT NULL, category_name TEXT NOT NULL, phone TEXT NOT NULL,
        address_name TEXT NOT NULL, road_address_name TEXT NOT NULL, x REAL NOT NULL,
        y REAL NOT NULL, place_url TEXT NOT NULL
      )
      """)
  }

  /// Stages `place`, replacing an earlier one with its id.
  func add(_ place: Place) throws {
    try database.withStatement(Self.stage) { statement in
      try statement.bind([
        .text(place.id), .integer(Self.zOrder(x: place.x, y: place.y)), .text(place.placeName),
        .text(place.category.code), .text(place.categoryName), .text(place.phone),
        .text(place.addressName), .text(place.roadAddressName), .real(place.x), .real(place.y),
        .text(place.placeUrl),
      ])
      try statement.step()
    }
  }

  /// Writes the staged places into `places`, in order, and drops the stage.
  func finish() throws {
    try database.execute(
      """
      INSERT INTO places (id, place_name, category_group_code, category_name, phone,
        address_name, road_address_name, x, y, place_url)
      SELECT id, place_name, category_group_code, category_name, phone, address_name,
        road_address_name, x, y, place_url
      FROM temp.places_staged WHERE true ORDER BY category_group_code, z
      \(PlaceSchema.upsertConflict)
      """)
    try database.execute("DROP TABLE temp.places_staged")
  }

  private static let stage = """
    INSERT OR REPLACE INTO temp.places_staged (id, z, place_name, category_group_code,
      category_name, phone, address_name, road_address_name, x, y, place_url)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  /// The position on a Z-order curve of a grid of 2¹⁶ cells per degree
  /// (about 1.7 × 1.4 m in Seoul): the bits of the column and the row,
  /// interleaved. Nearby places get nearby numbers, mostly.
  static func zOrder(x: Double, y: Double) -> Int64 {
    let column = UInt64(((min(max(x, -180), 180) + 180) * 65_536).rounded(.down))
    let row = UInt64(((min(max(y, -90), 90) + 90) * 65_536).rounded(.down))
    return Int64(spread(column) | spread(row) << 1)
  }

  /// The low 26 bits of `value`, one in every second bit.
  private static func spread(_ value: UInt64) -> UInt64 {
    var bits = value & 0x3FF_FFFF
    bits = (bits | bits << 16) & 0x0000_FFFF_0000_FFFF
    bits = (bits | bits << 8) & 0x00FF_00FF_00FF_00FF
    bits = (bits | bits << 4) & 0x0F0F_0F0F_0F0F_0F0F
    bits = (bits | bits << 2) & 0x3333_3333_3333_3333
    bits = (bits | bits << 1) & 0x5555_5555_5555_5555
    return bits
  }
}
