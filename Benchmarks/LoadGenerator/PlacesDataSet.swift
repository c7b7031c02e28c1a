import Glibc
import Services

/// The million places of the places figures, as the daemon sees them.
///
/// Seeded once per N into `.build/bench-data/places-N-F-O/places.sqlite`, F the
/// generator's `DemoPlaces.fingerprint` and O the imports' `PlaceStore.rowOrder`
/// (a changed generator or row order seeds anew): the
/// demo generator's first N places (Seoul's density, all 18 categories) are
/// written to a CSV and loaded with `catalogd import places FILE`, the path a
/// user's own data takes. A fresh file starts with the 50,000 demo places,
/// which are the generator's first 50,000 with the same seed, so the import
/// replaces them and the file holds exactly N.
///
/// Loaded for the in-process comparisons in the order the daemon numbers its
/// points (ids by length, then bytes), so a point number means the same place
/// in the daemon, the index built here, the scan and the R*Tree query.
struct PlacesDataSet {
  let folder: String
  /// Per point, in the daemon's order.
  let ids: [String]
  let categories: [UInt8]
  let xs: [Double]
  let ys: [Double]
  /// `PlaceGeometry.cosLatitude` of each latitude, as the index keeps it.
  let cosYs: [Double]
  /// The point number of each row key (-1 for no row).
  let numberOfKey: [Int32]

  var count: Int { ids.count }

  var points: [PlaceIndex.Point] {
    (0..<count).map { number in
      PlaceIndex.Point(
        category: PlaceCategory(rawValue: categories[number]) ?? .restaurant, x: xs[number],
        y: ys[number])
    }
  }

  /// The file of `count` places, seeded with `binary` if it is not there yet.
  static func seeded(count: Int, binary: String) throws -> String {
    let folder =
      ".build/bench-data/places-\(count)-\(DemoPlaces.fingerprint)-\(PlaceStore.rowOrder)"
    let file = folder + "/places.sqlite"
    if access(file, R_OK) == 0 { return folder }
    printError("seeding \(count) places into \(folder) (once)…")
    try spawnAndWait("/bin/mkdir", ["-p", folder])
    let csv = folder + "/places.csv"
    try writeCSV(count: count, to: csv)
    defer { unlink(csv) }
    // Into a scratch name first: an interrupted import leaves no half-seeded folder.
    let scratch = folder + "/seeding"
    try spawnAndWait(
      binary, ["import", "places", csv, "--data-dir", scratch, "--log-level", "error"])
    guard rename(scratch + "/places.sqlite", file) == 0 else {
      throw BenchError.system(call: "rename \(scratch)/places.sqlite", errno: errno)
    }
    try spawnAndWait("/bin/rm", ["-rf", scratch])
    return folder
  }

  /// The demo generator's first `count` places as an import CSV.
  private static func writeCSV(count: Int, to path: String) throws {
    guard let file = fopen(path, "w") else {
      throw BenchError.system(call: "fopen \(path)", errno: errno)
    }
    defer { fclose(file) }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    func flush() {
      _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      buffer.removeAll(keepingCapacity: true)
    }
    buffer.append(
      contentsOf:
        "id,placeName,categoryGroupCode,categoryName,phone,addressName,roadAddressName,x,y,placeUrl\n"
        .utf8)
    DemoPlaces.generate(count: count) { place in
      let text = [
        place.id, place.placeName, place.categoryGroupCode, place.categoryName, place.phone,
        place.addressName, place.roadAddressName,
      ].map(quoted)
      // Swift prints the shortest text that reads back as the same Double.
      let fields = text + [String(place.x), String(place.y), quoted(place.placeUrl)]
      buffer.append(contentsOf: fields.joined(separator: ",").utf8)
      buffer.append(UInt8(ascii: "\n"))
      if buffer.count > 1 << 20 { flush() }
    }
    flush()
    guard ferror(file) == 0 else { throw BenchError.system(call: "fwrite \(path)", errno: errno) }
  }

  private static func quoted(_ text: String) -> String {
    var field = "\""
    for character in text {
      field.append(character)
      if character == "\"" { field.append(character) }
    }
    return field + "\""
  }

  /// Reads every place of the seeded file, in the daemon's point order.
  init(folder: String) throws {
    self.folder = folder
    let database = try SQLiteDatabase(path: folder + "/places.sqlite", readOnly: false)
    var ids: [String] = []
    var categories: [UInt8] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var keys: [Int64] = []
    try database.withStatement(
      "SELECT key, id, category_group_code, x, y FROM places ORDER BY length(id), id"
    ) { statement in
      while try statement.step() {
        guard let category = PlaceCategory(code: try statement.text(2)) else { continue }
        keys.append(try statement.int64(0))
        ids.append(try statement.text(1))
        categories.append(category.rawValue)
        xs.append(try statement.double(3))
        ys.append(try statement.double(4))
      }
    }
    var numberOfKey = [Int32](repeating: -1, count: Int(keys.max() ?? 0) + 1)
    for (number, key) in keys.enumerated() { numberOfKey[Int(key)] = Int32(number) }
    self.ids = ids
    self.categories = categories
    self.xs = xs
    self.ys = ys
    cosYs = ys.map(PlaceGeometry.cosLatitude)
    self.numberOfKey = numberOfKey
  }
}
