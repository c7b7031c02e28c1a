/// What a search counts: its text, and its supplier.
struct SearchKey: Hashable {
  let text: String?
  let supplier: Int64?
}
