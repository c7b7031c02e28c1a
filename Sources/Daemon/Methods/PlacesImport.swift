import Protocol
import Services

/// `places/import {path, workDoneToken?}` → `{imported, rejected: [{line, reason}], rejectedCount}`.
///
/// With a `workDoneToken`, `$/progress` reports the share of the file read
/// (every 10,000 rows), then the outcome. Imports run one at a time, in
/// arrival order. `path` is absolute, or relative to the daemon's working
/// directory.
enum PlacesImport {
  /// Every import shares one lane.
  @Sendable static func lane(_ params: JSON?) -> String? { "places/import" }

  static let method = Method.task("places/import", lane: lane) { params, context in
    let path = try Params(params).requiredString("path", maxLength: 4_096)
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
