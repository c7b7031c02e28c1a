import Glibc
import Services

/// Issue 7's shared-catalog write figure: eight daemons on one PostgreSQL database, each sent
/// its share of `products/create` requests pipelined, all at once. The figure is the total
/// acknowledged creates per second, from the first request written to the last reply read.
/// Then every acknowledged id is looked up in the database (psql): a reply means its commit is
/// durable, so a missing one fails the figure.
struct ConcurrentCreates {
  static let daemonCount = 8

  let binary: String
  let cluster: PostgresBenchCluster
  let daemons: Int
  let creates: Int

  func run(into report: inout Report) throws {
    let before = Int(try cluster.psql("SELECT coalesce(max(id), 0) FROM products")) ?? 0
    let share = creates / daemons
    var clients: [Handoff] = []
    var directories: [TempDirectory] = []
    for index in 0..<daemons {
      let directory = try TempDirectory()
      directories.append(directory)
      let client = try LineClient(
        binary: binary,
        arguments: [
          "--data-dir", directory.path, "--log-level", "error", "--database-url", cluster.url,
        ])
      _ = try client.call(#""initialize","params":{"clientId":"bench-\#(index)"}"#)
      // Untimed: connects, checks the migrations and starts listening, as any first call does.
      _ = try client.call(#""products/get","params":{"id":"1"}"#)
      clients.append(Handoff(client: client, daemon: index, creates: share))
    }

    let started = monotonicNanoseconds()
    let threads = try clients.map { handoff in try NativeThread { handoff.createAll() } }
    let outcomes = threads.map { $0.join() ?? .failure(.harness("a create thread ended early")) }
    let seconds = Double(monotonicNanoseconds() - started) / 1e9

    var throughput = Figure(
      key: "postgresConcurrentCreatesPerSecond",
      label: "pg creates, \(daemons) daemons", unit: "/s", decimals: 0)
    var present = Figure(
      key: "postgresConcurrentCreatesPresent", label: "pg creates present", unit: "", decimals: 0)
    var acknowledged: [Int] = []
    var failure: String?
    for outcome in outcomes {
      switch outcome {
      case .success(let ids): acknowledged += ids
      case .failure(let error): failure = failure ?? "\(error)"
      }
    }
    if let failure {
      throughput.error = failure
      present.error = failure
    } else {
      throughput.value = Double(acknowledged.count) / seconds
      throughput.detail =
        "\(acknowledged.count) creates in \(formatted(seconds, decimals: 1, grouped: false)) s"
      // Every id above the catalog's largest before the run is one of this run's creates.
      let stored = Set(
        try cluster.psql("SELECT id FROM products WHERE id > \(before)")
          .split(separator: "\n").compactMap { Int($0) })
      let missing = acknowledged.filter { !stored.contains($0) }
      present.value = Double(acknowledged.count - missing.count)
      if missing.isEmpty && Set(acknowledged).count == acknowledged.count {
        present.detail = "of \(acknowledged.count) acknowledged: all present, no id twice"
      } else {
        present.error =
          "\(missing.count) of \(acknowledged.count) acknowledged creates missing "
          + "(first: \(missing.prefix(5).map(String.init).joined(separator: ", ")))"
      }
    }
    report.add(throughput)
    report.add(present)
    for handoff in clients { try handoff.client.close() }
  }
}

/// One daemon of the concurrent run, handed to its thread; only that thread uses it until
/// `join`.
private final class Handoff: @unchecked Sendable {
  let client: LineClient
  let daemon: Int
  let creates: Int

  init(client: LineClient, daemon: Int, creates: Int) {
    self.client = client
    self.daemon = daemon
    self.creates = creates
  }

  /// Sends every create at once from a writer thread (the replies and the other daemons'
  /// notifications flow back meanwhile, so neither pipe stalls the other), reads the replies
  /// and returns the ids of the created products.
  func createAll() -> Result<[Int], BenchError> {
    var text = ""
    for index in 0..<creates {
      text +=
        #"{"jsonrpc":"2.0","id":\#(1000 + index),"method":"products/create","params":"#
        + #"{"nameKo":"동시 생성 \#(daemon)-\#(index)","price":\#(1000 + index)}}"# + "\n"
    }
    let bytes = Array(text.utf8)
    let input = client.process.input
    do {
      let writer = try NativeThread { () -> Bool in
        (try? bytes.withUnsafeBytes { try writeAll(input, $0) }) != nil
      }
      let replies = try client.readReplies(creates)
      guard writer.join() == true else { return .failure(.harness("writing the creates failed")) }
      var ids: [Int] = []
      ids.reserveCapacity(replies.count)
      for reply in replies {
        // The reply's own id is a number; the first `"id":"` is the product's.
        guard let id = Int(try stringField("id", in: reply)) else {
          return .failure(.wrongReplies("no product id in \(reply.prefix(300))"))
        }
        ids.append(id)
      }
      return .success(ids)
    } catch let error as BenchError {
      return .failure(error)
    } catch {
      return .failure(.harness("\(error)"))
    }
  }
}
