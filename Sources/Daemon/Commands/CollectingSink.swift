import Protocol

/// Keeps messages in memory and lets a thread wait for the replies it expects.
final class CollectingSink: MessageSink, @unchecked Sendable {
  /// Guards `messages`.
  private let lock = ConditionLock()
  /// Every message sent, parsed.
  private var messages: [JSON] = []

  func send(_ body: [UInt8], wake: Bool) {
    let message = (try? JSONParser.parse(body)) ?? .null
    lock.withLock {
      messages.append(message)
      lock.broadcast()
    }
  }

  func flush() {}

  /// Blocks until a reply with each of `ids` arrived; returns them in that order.
  func waitForReplies(ids: [Int]) -> [JSON] {
    let messages = waitUntil { messages in
      ids.allSatisfy { id in messages.contains { $0["id"]?.intValue == id } }
    }
    return ids.compactMap { id in messages.first { $0["id"]?.intValue == id } }
  }

  /// Blocks until `condition` holds for the messages so far (or `timeout`
  /// seconds pass) and returns them.
  func waitUntil(timeout: Double = .infinity, _ condition: ([JSON]) -> Bool) -> [JSON] {
    let limit = deadline(after: min(timeout, 86_400))
    return lock.withLock {
      while !condition(messages) {
        guard lock.wait(until: limit) else { break }
      }
      return messages
    }
  }
}
