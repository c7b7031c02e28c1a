/// A sentence or phrase a person reads, in the session's language.
///
/// Written as English with interpolations (`"must be at least \(minimum)"`),
/// as gettext's message ids are: the English text with `{0}`, `{1}`… where
/// the values go is the key of its translation in `MessageCatalog`. An
/// interpolated `LocalizedText` (a type name, what a value should be) is
/// translated too; other values are shown as they are.
public struct LocalizedText: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringInterpolation
{
  public enum Argument: Sendable, Hashable {
    case verbatim(String)
    case text(LocalizedText)
  }

  /// The English text with `{0}`, `{1}`… for the arguments.
  public let template: String
  public let arguments: [Argument]

  public init(template: String, arguments: [Argument] = []) {
    self.template = template
    self.arguments = arguments
  }

  /// Text shown as it is in every language (an upstream's own message).
  public static func verbatim(_ text: String) -> LocalizedText {
    LocalizedText(template: "{0}", arguments: [.verbatim(text)])
  }

  /// Marks a phrase that is translated where it is used (a type's name,
  /// what a value should be), so that the catalog's test finds it.
  public static func phrase(_ text: LocalizedText) -> LocalizedText { text }

  public init(stringLiteral value: String) {
    self.init(template: value)
  }

  public init(stringInterpolation: Interpolation) {
    self.init(template: stringInterpolation.template, arguments: stringInterpolation.arguments)
  }

  public struct Interpolation: StringInterpolationProtocol {
    var template = ""
    var arguments: [Argument] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      template.reserveCapacity(literalCapacity + 3 * interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) { template += literal }

    public mutating func appendInterpolation(_ text: LocalizedText) {
      template += "{\(arguments.count)}"
      arguments.append(.text(text))
    }

    public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      template += "{\(arguments.count)}"
      arguments.append(.verbatim(value.description))
    }
  }

  /// The text in `locale`; the English text where a translation is missing
  /// (a test checks that none is).
  public func text(in locale: MessageLocale) -> String {
    let translated =
      switch locale {
      case .english: template
      case .korean: MessageCatalog.korean[template] ?? template
      }
    guard !arguments.isEmpty else { return translated }
    // One pass, so that a value holding "{1}" is never taken for a placeholder.
    var result = ""
    var rest = translated[...]
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "}"),
        let index = Int(rest[afterOpen..<close]), arguments.indices.contains(index)
      else {
        result += "{"
        rest = rest[afterOpen...]
        continue
      }
      switch arguments[index] {
      case .verbatim(let string): result += string
      case .text(let text): result += text.text(in: locale)
      }
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  public var english: String { text(in: .english) }
  public var description: String { english }

  /// Equal when they read the same in English, however they were made.
  public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
    lhs.english == rhs.english
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(english) }
}
