import Protocol
import Services

/// The shapes of the feeds' results and notifications.
enum FeedSchemas {
  static let feedState = SchemaComponent("FeedState", .choice(FeedState.allCases.map(\.rawValue)))

  static let feedRange = SchemaComponent(
    "FeedRange",
    .object([
      Member("start", .integer(minimum: 0), required: true),
      Member(
        "end", .integer(minimum: 0), required: true, "start == end when nothing was appended"),
      Member("endReached", .boolean, required: true),
    ]))

  /// An item of any source: a Product, Photo, Place or Quote.
  static let items = Schema.array(of: .object([], strict: false))

  static let feedItemChange = SchemaComponent(
    "FeedItemChange",
    .described(
      .oneOf([
        .titled(
          "FeedInsert",
          .object([
            Member("op", .constant("insert"), required: true),
            Member("index", .integer(minimum: 0), required: true),
            Member("items", items, required: true),
          ])),
        .titled(
          "FeedRemove",
          .object([
            Member("op", .constant("remove"), required: true),
            Member("index", .integer(minimum: 0), required: true),
            Member("count", .integer(minimum: 1), required: true),
          ])),
        .titled(
          "FeedUpdate",
          .object([
            Member("op", .constant("update"), required: true),
            Member("index", .integer(minimum: 0), required: true),
            Member("items", items, required: true),
          ])),
      ]), "one step of feeds/itemsChanged, at the index the list has when it is applied"))
}
