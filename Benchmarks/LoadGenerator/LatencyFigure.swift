/// A round-trip figure: the p50 of `samples` (nanoseconds) in milliseconds
/// beside `target` (if any), with the p99 as its detail so that a line shows both.
func latencyFigure(_ key: String, _ label: String, _ samples: [UInt64], target: Double?) -> Figure {
  let percentiles = Percentiles(samples)
  var figure = Figure(
    key: key, label: label, unit: "ms", decimals: 3, target: target.map { .atMost($0) })
  figure.value = Double(percentiles.at(50)) / 1e6
  figure.detail =
    "p99 \(formatted(Double(percentiles.at(99)) / 1e6, decimals: 3, grouped: false)) ms"
  return figure
}
