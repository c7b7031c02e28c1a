/// How the demo names a place of each category: patterns with Kakao-style
/// category paths, chosen by weight.
///
/// A pattern is text with tokens: `{stem}` the neighbourhood (`역삼`),
/// `{dong}` its full name (`역삼동`), `{gu}` the district (`강남구`),
/// `{guStem}` (`강남`), `{road}`, `{station}` the nearest station without
/// `역`, `{line}` its line, `{branch}` a branch name made of those, `{word}`
/// a soft word for cafés and shops, `{trust}` a word clinics and agencies
/// use, `{surname}`, `{n}` a digit, and `{pick:a|b|c}` one of the choices.
struct DemoPlaceTemplate: Sendable {
  enum Part: Sendable {
    case text(String)
    case stem
    case dong
    case gu
    case guStem
    case road
    case station
    case line
    case branch
    case word
    case trust
    case surname
    case number
    case pick([String])
  }

  let parts: [Part]
  let categoryName: String
  let weight: Int

  init(_ pattern: String, _ categoryName: String, _ weight: Int = 1) {
    self.categoryName = categoryName
    self.weight = weight
    var parts: [Part] = []
    var rest = Substring(pattern)
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
      let token = rest[rest.index(after: open)..<close]
      switch token {
      case "stem": parts.append(.stem)
      case "dong": parts.append(.dong)
      case "gu": parts.append(.gu)
      case "guStem": parts.append(.guStem)
      case "road": parts.append(.road)
      case "station": parts.append(.station)
      case "line": parts.append(.line)
      case "branch": parts.append(.branch)
      case "word": parts.append(.word)
      case "trust": parts.append(.trust)
      case "surname": parts.append(.surname)
      case "n": parts.append(.number)
      default:
        if token.hasPrefix("pick:") {
          parts.append(.pick(token.dropFirst(5).split(separator: "|").map(String.init)))
        } else {
          parts.append(.text(String(rest[open...close])))
        }
      }
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    self.parts = parts
  }
}
