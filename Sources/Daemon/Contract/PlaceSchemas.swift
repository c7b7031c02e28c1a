import Protocol
import Services

/// The shapes of the places service's results.
enum PlaceSchemas {
  static let categoryCode = Schema.choice(PlaceCategory.codes)

  static let place = SchemaComponent(
    "Place",
    .object([
      Member("id", .string, required: true),
      Member("placeName", .string, required: true),
      Member("categoryGroupCode", categoryCode, required: true),
      Member("categoryGroupName", .string, required: true),
      Member("categoryName", .string, required: true),
      Member("phone", .string, required: true, "may be empty"),
      Member("addressName", .string, required: true),
      Member("roadAddressName", .string, required: true),
      Member("x", .number(minimum: -180, maximum: 180), required: true, "longitude, degrees"),
      Member("y", .number(minimum: -90, maximum: 90), required: true, "latitude, degrees"),
      Member(
        "distance", .nullable(.integer), required: true,
        "whole metres (great circle) from the search centre; null without one and in places/get"),
      Member("placeUrl", .string, required: true, "may be empty"),
    ]))

  static let placeSearchResult = SchemaComponent(
    "PlaceSearchResult",
    .object([
      Member("items", .array(of: .reference(place)), required: true),
      Member(
        "meta",
        .object([
          Member("totalCount", .integer, required: true),
          Member(
            "pageableCount", .integer(minimum: 0, maximum: PlaceSearch.maxPageable),
            required: true),
          Member(
            "isEnd", .boolean, required: true,
            "true on the last pageable page: hide the more button"),
        ]), required: true),
    ]))

  static let placeImportResult = SchemaComponent(
    "PlaceImportResult",
    .object([
      Member("imported", .integer, required: true),
      Member(
        "rejected",
        .array(
          of: .object([
            Member("line", .integer, required: true), Member("reason", .string, required: true),
          ])), required: true, "the first 1,000 bad rows"),
      Member("rejectedCount", .integer, required: true, "every bad row"),
    ]))
}
