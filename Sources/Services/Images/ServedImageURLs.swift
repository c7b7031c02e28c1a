import Synchronization

/// Image URLs the daemon handed out that no service can re-derive: a
/// remote backend's URLs (picsum's download URLs, whatever host the upstream
/// names). Bounded: past `capacity` the oldest go first, so its memory stays
/// small whatever the clients page through. Not kept across restarts: a
/// client whose URL was forgotten lists again, which records it again.
public final class ServedImageURLs: ImageURLAuthority {
  private struct State {
    /// The URLs, for lookups.
    var members: Set<String> = []
    /// The same URLs in the order recorded: a ring whose oldest is at `next`.
    var order: [String] = []
    /// Where the next URL goes in `order` once it is full.
    var next = 0
  }

  /// URLs kept at most: a few hundred pages of a photo list.
  public static let defaultCapacity = 20_000

  public let capacity: Int
  private let state = Mutex(State())

  public init(capacity: Int = ServedImageURLs.defaultCapacity) {
    self.capacity = max(1, capacity)
  }

  /// Records `urls` as handed out.
  public func record(_ urls: some Sequence<String>) {
    state.withLock { state in
      for url in urls where !state.members.contains(url) {
        state.members.insert(url)
        if state.order.count < capacity {
          state.order.append(url)
        } else {
          state.members.remove(state.order[state.next])
          state.order[state.next] = url
          state.next = (state.next + 1) % capacity
        }
      }
    }
  }

  public func contains(_ url: String) -> Bool {
    state.withLock { $0.members.contains(url) }
  }

  /// The URLs held now.
  public var count: Int { state.withLock { $0.members.count } }

  public func handedOut(_ url: ImageURL) async throws -> Bool {
    contains(url.text)
  }
}
