import Protocol

/// `places/import {path, workDoneToken?}` → `{imported, rejected: [{line, reason}], rejectedCount}`.
///
/// With a `workDoneToken`, `$/progress` reports the share of the file read
/// (every 10,000 rows), then the outcome. Imports run one at a time, in
/// arrival order. `path` is absolute, or relative to the daemon's working
/// directory.
enum PlacesImport {
  static let path: Param<String> = .requiredString(
    "path", maxLength: 4_096, "a file the daemon can read")
  static let workDoneToken: Param<JSON?> = .value(
    "workDoneToken", DaemonSchemas.token, "reports $/progress under this token")

  static let contract = MethodContract(
    "places/import",
    "Imports a CSV (header row of Place field names) or GeoJSON FeatureCollection file; bad rows "
      + "are rejected with line and reason, the rest imported in one transaction; an existing id "
      + "is replaced. $/progress every 10,000 rows when workDoneToken is given.",
    params: [path, workDoneToken], result: .component(PlaceSchemas.placeImportResult))

  /// Every import shares one lane.
  @Sendable static func lane(_ params: JSON?) -> String? { "places/import" }

  static let method = Method.task(contract, lane: lane) { params, context in
    let path = params[path]
    let progress = context.progress
    progress?.begin(title: "Importing places", message: path, percentage: 0)
    do {
      let result = try await context.daemon.services.places.importPlaces(path: path) { done in
        progress?.report(message: "\(done.rows) rows read", percentage: done.percentage)
      }
      progress?.end(message: "\(result.imported) imported, \(result.rejectedCount) rejected")
      return result.json
    } catch {
      progress?.end(message: "import failed")
      throw error
    }
  }
}
