import Protocol

/// The `quotes/loading {isLoading}` notification of `quotes/random` (the quote
/// app's refresh button), bound to one request's context.
enum QuotesLoading {
  static let name = "quotes/loading"

  static func notifier(_ context: RequestContext) -> @Sendable (Bool) -> Void {
    { isLoading in context.notify(name, ["isLoading": JSON(isLoading)]) }
  }
}
