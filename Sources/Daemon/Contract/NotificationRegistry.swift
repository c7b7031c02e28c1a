import Protocol

/// Every notification of the protocol, both ways; `rpc.discover` lists them
/// and `initialize` announces each service's.
enum NotificationRegistry {
  static let feedBase: [Member] = [
    Member("feedId", .string, required: true),
    Member("generation", .integer(minimum: 0), required: true),
  ]

  static let all: [NotificationContract] = [
    NotificationContract("initialized", .toServer, "Accepted; nothing to do. No params."),
    NotificationContract(
      "exit", .toServer, "Ends the process: status 0 after shutdown, 1 without. No params."),
    NotificationContract(
      "$/cancelRequest", .toServer,
      "A request still running ends with -32800; unknown or finished ids are ignored.",
      params: .object([Member("id", DaemonSchemas.token, required: true)], strict: false)),
    NotificationContract(
      "$/progress", .toClient,
      "Progress of long work, for requests that carried params.workDoneToken.",
      params: .object([
        Member("token", DaemonSchemas.token, required: true),
        Member("value", .reference(DaemonSchemas.progressValue), required: true),
      ])),
    NotificationContract(
      "feeds/pageLoaded", .toClient,
      "A page was appended at start..<end; reset is true for the first page after a refresh (the "
        + "list now starts at 0). generation grows by one at each refresh; a page fetched for an "
        + "older generation is never delivered. Precedes the reply of the request that caused it.",
      params: .object(
        feedBase + [
          Member("start", .integer, required: true),
          Member("end", .integer, required: true),
          Member("items", FeedSchemas.items, required: true),
          Member("endReached", .boolean, required: true),
          Member("reset", .boolean, required: true),
        ])),
    NotificationContract(
      "feeds/itemsChanged", .toClient,
      "The feed's loaded items changed in place (a product created, updated or deleted by any "
        + "writer of the catalog; a file of a photos folder added, removed or changed; a reload "
        + "after changes may have been missed): apply changes in order. insert puts items at "
        + "index; remove takes count items from index; update replaces the items from index on. A "
        + "move is a remove and an insert. count is the number of items after the changes. Only "
        + "sent to feeds opened with changes: diff (the default). Precedes the reply of the "
        + "request that caused it.",
      params: .object(
        feedBase + [
          Member("changes", .array(of: .reference(FeedSchemas.feedItemChange)), required: true),
          Member("count", .integer(minimum: 0), required: true),
        ])),
    NotificationContract(
      "feeds/stateChanged", .toClient,
      "The feed entered a state (every load reports its start and its end), with the number of "
        + "items it holds; error is the failed load's error object.",
      params: .object([
        Member("feedId", .string, required: true),
        Member("state", .reference(FeedSchemas.feedState), required: true),
        Member("count", .integer(minimum: 0), required: true),
        Member(
          "error",
          .object([
            Member("code", .integer, required: true), Member("message", .string, required: true),
            Member("data", .any),
          ])),
      ])),
    NotificationContract(
      "products/listUpdated", .toClient,
      "The catalog changed: reload the list. Changes made by other daemons on the same catalog "
        + "are reported from initialize on. reason resync (no id): changes were made elsewhere or "
        + "may have been missed (after a bulk seed, or once the PostgreSQL connection is back "
        + "after it broke).",
      params: .object([
        Member("reason", .choice(["created", "updated", "deleted", "resync"]), required: true),
        Member("id", .string),
      ])),
    NotificationContract(
      "products/changed", .toClient, "A product was updated: refresh its detail.",
      params: .object([Member("product", .reference(ProductSchemas.product), required: true)])),
    NotificationContract(
      "quotes/loading", .toClient,
      "A quotes/random fetch started (true) or all ended (false), failures included; the refresh "
        + "button is enabled exactly when isLoading is false. quotes/list and quotes feeds do not "
        + "send it (feeds report their loads through feeds/stateChanged).",
      params: .object([Member("isLoading", .boolean, required: true)])),
  ]
}
