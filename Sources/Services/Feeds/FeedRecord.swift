/// A record a live source lists, as a change carries it.
public enum FeedRecord: Sendable {
  case product(ProductRecord)
  case photo(Photo, relativePath: String)
}
