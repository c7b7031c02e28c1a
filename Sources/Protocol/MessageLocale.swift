/// The language of the error messages a session reads: `initialize`'s
/// `locale` (as in the Language Server Protocol), else the daemon's
/// environment (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
public enum MessageLocale: String, Sendable, CaseIterable {
  case english = "en"
  case korean = "ko"

  /// The locale of a BCP 47 tag (`ko`, `ko-KR`) or a POSIX locale name
  /// (`ko_KR.UTF-8`); `nil` for a language without messages here.
  public init?(identifier: String) {
    let language = identifier.prefix { $0.isLetter }.lowercased()
    guard let locale = MessageLocale(rawValue: language) else { return nil }
    self = locale
  }

  /// The first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not
  /// empty decides, as POSIX orders them; English when it names another language.
  public static func fromEnvironment(_ environment: [String: String]) -> MessageLocale {
    let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    return name.flatMap(MessageLocale.init(identifier:)) ?? .english
  }
}
