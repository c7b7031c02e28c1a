import Protocol
import Services
import Synchronization

/// How long each method's requests take inside the daemon, for
/// `daemon/status`: from the message's bytes arriving at the parser to its
/// reply handed to the output (written, when the writer thread was idle),
/// so the time a request waits for a slot or its lane counts, and the
/// client's side of the pipe does not.
///
/// Only the registry's methods are kept, so a client sending made-up names
/// cannot grow it.
final class MethodTimings: Sendable {
  private let histograms = Mutex<[String: LatencyHistogram]>([:])

  func record(_ method: String, since received: UInt64) {
    let elapsed = monotonicNanoseconds() &- received
    histograms.withLock { $0[method, default: LatencyHistogram()].record(nanoseconds: elapsed) }
  }

  /// Per method with requests: `{count, p50Ms, p90Ms, p99Ms, maxMs}`, and
  /// with `buckets` the cumulative histogram, `[[upperBoundMs, count], …]`.
  func json(buckets: Bool) -> JSON {
    let histograms = histograms.withLock { $0 }
    var object = JSONObject()
    for (method, histogram) in histograms.sorted(by: { $0.key < $1.key }) {
      var entry: JSONObject = [
        "count": JSON(Int(histogram.count)),
        "p50Ms": Self.milliseconds(histogram.percentile(50)),
        "p90Ms": Self.milliseconds(histogram.percentile(90)),
        "p99Ms": Self.milliseconds(histogram.percentile(99)),
        "maxMs": Self.milliseconds(histogram.max),
      ]
      if buckets {
        entry["buckets"] = .array(
          histogram.occupied.map { [Self.milliseconds($0.upperBound), JSON(Int($0.count))] })
      }
      object[method] = .object(entry)
    }
    return .object(object)
  }

  /// Milliseconds with the nanoseconds kept, so that bucket bounds stay distinct.
  private static func milliseconds(_ nanoseconds: UInt64) -> JSON {
    JSON(Double(nanoseconds) / 1e6)
  }
}
