import Synchronization

/// Group commit: items submitted while a batch is being written wait, and
/// then go together in the next batch, so that one commit (one fsync and, for
/// a notifying transaction, one turn at PostgreSQL's notification lock)
/// serves them all. A lone item is written at once.
///
/// `write` gets the items of one batch and answers each with its own result,
/// in order: one item's failure need not fail the others.
final class PostgresGroupCommit<Item: Sendable, Output: Sendable>: Sendable {
  typealias Write = @Sendable ([Item]) async -> [Result<Output, any Error>]

  private let write: Write
  private let maxBatchSize: Int
  private let state = Mutex(State())

  private struct State {
    var pending: [(item: Item, caller: CheckedContinuation<Output, any Error>)] = []
    /// Whether a task is writing batches (it takes every pending item).
    var isWriting = false
  }

  init(maxBatchSize: Int, write: @escaping Write) {
    self.maxBatchSize = max(maxBatchSize, 1)
    self.write = write
  }

  /// Writes `item` in the next batch and returns its result, after its batch
  /// was committed (or failed).
  func submit(_ item: Item) async throws -> Output {
    try await withCheckedThrowingContinuation { caller in
      let starts = state.withLock { state in
        state.pending.append((item, caller))
        guard !state.isWriting else { return false }
        state.isWriting = true
        return true
      }
      if starts { Task { await self.writeBatches() } }
    }
  }

  /// How many items wait for the next batch.
  var pendingCount: Int { state.withLock { $0.pending.count } }

  /// Writes batches until none is pending.
  private func writeBatches() async {
    while true {
      let batch = state.withLock { state in
        let batch = Array(state.pending.prefix(maxBatchSize))
        state.pending.removeFirst(batch.count)
        if batch.isEmpty { state.isWriting = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let results = await write(batch.map(\.item))
      for (index, entry) in batch.enumerated() {
        if index < results.count {
          entry.caller.resume(with: results[index])
        } else {
          entry.caller.resume(
            throwing: PostgresError(kind: .statement, message: "the batch gave no result for this"))
        }
      }
    }
  }
}
