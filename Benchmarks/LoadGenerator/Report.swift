import Glibc

/// One figure: a value beside its target, or why it could not be measured.
struct Figure {
  enum Target {
    case atLeast(Double)
    case atMost(Double)
  }

  /// Its member name in the JSON object.
  let key: String
  /// Its name on the text line.
  let label: String
  let unit: String
  /// Decimals shown.
  let decimals: Int
  var target: Target? = nil
  /// Nil when the measurement failed.
  var value: Double?
  /// Why the measurement failed.
  var error: String? = nil
  /// What else a reader needs beside the value (a p99, how the cache was emptied), shown after it.
  var detail: String? = nil

  /// Whether the value meets the target; nil without one or without a value.
  var met: Bool? {
    guard let value, let target else { return nil }
    switch target {
    case .atLeast(let bound): return value >= bound
    case .atMost(let bound): return value <= bound
    }
  }

  /// `throughput ndjson        512,345 req/s  target ≥ 400,000 req/s  ok`
  var line: String {
    let name = padded(label, to: 20)
    guard let value else { return name + "failed: " + (error ?? "unknown error") }
    let measured =
      name + padded(formatted(value, decimals: decimals, grouped: true), to: 12, left: true)
      + " " + unit
    let bound: String
    switch target {
    case .atLeast(let value):
      bound = "target ≥ " + formatted(value, decimals: value < 1 ? 1 : 0, grouped: true)
    case .atMost(let value):
      bound = "target ≤ " + formatted(value, decimals: value < 1 ? 1 : 0, grouped: true)
    case nil: return measured + (detail.map { "  " + $0 } ?? "")
    }
    return padded(measured + "  ", to: 40) + padded(bound + " " + unit, to: 26)
      + (met == true ? "ok" : "MISSED") + (detail.map { "  " + $0 } ?? "")
  }

  /// `"throughputNdjson": {"value": 512345, "unit": "req/s", …}`
  var jsonMember: String {
    var members = [
      "\"value\": " + (value.map { formatted($0, decimals: decimals, grouped: false) } ?? "null"),
      "\"unit\": " + jsonString(unit),
    ]
    // As on the text line: the get target of 0.2 ms is not 0.
    func bound(_ value: Double) -> String {
      formatted(value, decimals: value < 1 ? 1 : 0, grouped: false)
    }
    switch target {
    case .atLeast(let value): members.append("\"target\": {\"atLeast\": \(bound(value))}")
    case .atMost(let value): members.append("\"target\": {\"atMost\": \(bound(value))}")
    case nil: break
    }
    if let met { members.append("\"met\": \(met)") }
    if let detail { members.append("\"detail\": " + jsonString(detail)) }
    if let error { members.append("\"error\": " + jsonString(error)) }
    return jsonString(key) + ": {" + members.joined(separator: ", ") + "}"
  }
}

/// The figures of one run: printed a line each as they are measured, or with `--json` as one
/// JSON object at the end, so that stdout is that object alone.
struct Report {
  let json: Bool
  /// Settings echoed in the JSON object, as members ready to print.
  var settings: [String] = []
  private(set) var figures: [Figure] = []

  init(json: Bool) {
    self.json = json
  }

  /// Whether some figure could not be measured.
  var failed: Bool { figures.contains { $0.value == nil } }

  mutating func add(_ figure: Figure) {
    figures.append(figure)
    guard !json else { return }
    print(figure.line)
    // A long run shows each figure as it is measured. All streams: Swift 6 rejects the C
    // global `stdout` as shared mutable state.
    fflush(nil)
  }

  mutating func setting(_ name: String, _ value: String) {
    settings.append(jsonString(name) + ": " + value)
  }

  func finish() {
    guard json else { return }
    let figureMembers = figures.map { "    " + $0.jsonMember }.joined(separator: ",\n")
    let members = settings.map { "  " + $0 } + ["  \"figures\": {\n" + figureMembers + "\n  }"]
    print("{\n" + members.joined(separator: ",\n") + "\n}")
  }
}

/// `value` with `decimals` decimals, and thousands separators if `grouped`; there is no
/// Foundation formatter here.
func formatted(_ value: Double, decimals: Int, grouped: Bool) -> String {
  guard value.isFinite else { return "null" }
  var scale = 1
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int((abs(value) * Double(scale)).rounded())
  var whole = ""
  let digits = Array(String(scaled / scale))
  for (index, digit) in digits.enumerated() {
    if grouped && index > 0 && (digits.count - index) % 3 == 0 { whole.append(",") }
    whole.append(digit)
  }
  var text = (value < 0 && scaled != 0 ? "-" : "") + whole
  if decimals > 0 {
    let fraction = String(scaled % scale)
    text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }
  return text
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  var literal = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": literal += "\\\""
    case "\\": literal += "\\\\"
    case "\n": literal += "\\n"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: literal.unicodeScalars.append(scalar)
    }
  }
  return literal + "\""
}

/// `text` padded with spaces to `width` characters, on the right unless `left`.
private func padded(_ text: String, to width: Int, left: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return left ? padding + text : text + padding
}
