import Synchronization

/// The number a connection gives a request when its handler's task is
/// registered, for a handler that replies before it returns
/// (`RequestContext.reply`): the context is made before the number is known.
final class RequestSequence: Sendable {
  private let value = Mutex<UInt64?>(nil)

  var number: UInt64? {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}
