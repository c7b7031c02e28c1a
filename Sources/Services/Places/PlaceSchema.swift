/// The embedded places file's schema, by migration (`PRAGMA user_version`).
///
/// - `key` is the row's own number: the index keeps it per point and fetches
///   a page's rows by it. Imports update rows in place, so a key never moves.
/// - `places_by_id_order` is the order of ids the API sorts ties and
///   `accuracy` by (shorter first, then by code point: numeric order for
///   decimal ids). It also holds what the index needs, so building the index
///   reads the index alone, in order.
/// - Codes and coordinates are checked, so the index never meets a place it
///   cannot place.
enum PlaceSchema {
  /// `'MT1', 'CS2', …`.
  private static let quotedCodes = PlaceCategory.codes.map { "'\($0)'" }.joined(separator: ", ")

  static let version1 = """
    CREATE TABLE places (
      key INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      place_name TEXT NOT NULL,
      category_group_code TEXT NOT NULL CHECK (category_group_code IN (\(quotedCodes))),
      category_name TEXT NOT NULL DEFAULT '',
      phone TEXT NOT NULL DEFAULT '',
      address_name TEXT NOT NULL DEFAULT '',
      road_address_name TEXT NOT NULL DEFAULT '',
      x REAL NOT NULL CHECK (x BETWEEN -180 AND 180),
      y REAL NOT NULL CHECK (y BETWEEN -90 AND 90),
      place_url TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX places_by_id_order ON places(length(id), id, category_group_code, x, y);
    """

  /// What the index is built from, in id order: the category as its
  /// position in Kakao's order (`PlaceCategory.rawValue`; -1 for an unknown
  /// code), found by SQLite in the list of codes, which spares a string per row.
  static let selectIndexed = """
    SELECT key, (instr('\(codeList)', category_group_code) + 3) / 4 - 1, x, y
    FROM places ORDER BY length(id), id
    """

  /// `MT1,CS2,…,PM9`: each code starts at a multiple of 4.
  private static let codeList = PlaceCategory.codes.joined(separator: ",")

  static let columns = """
    key, id, place_name, category_group_code, category_name, phone, address_name,
    road_address_name, x, y, place_url
    """

  /// What makes an insert of a place with an id already in the file replace
  /// that row's values, keeping its key.
  static let upsertConflict = """
    ON CONFLICT(id) DO UPDATE SET
      place_name = excluded.place_name, category_group_code = excluded.category_group_code,
      category_name = excluded.category_name, phone = excluded.phone,
      address_name = excluded.address_name, road_address_name = excluded.road_address_name,
      x = excluded.x, y = excluded.y, place_url = excluded.place_url
    """
}
