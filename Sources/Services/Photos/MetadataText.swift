/// Text read from image metadata, made fit to show: cut at the first NUL,
/// control characters dropped, white space trimmed, at most 200 characters.
enum MetadataText {
  static let maxCharacters = 200

  /// The text of `bytes`: UTF-8 when valid, else Latin-1 (which every byte
  /// sequence is); `latin1` forces Latin-1 (PNG `tEXt`). Nil when empty.
  static func decode(_ bytes: some Collection<UInt8>, latin1: Bool) -> String? {
    let cut = bytes.prefix { $0 != 0 }
    let scalars: [Unicode.Scalar]
    if !latin1, let utf8 = String(validating: cut, as: UTF8.self) {
      scalars = Array(utf8.unicodeScalars)
    } else {
      scalars = cut.map { Unicode.Scalar($0) }
    }
    let shown = scalars.filter { $0.properties.generalCategory != .control }
    let text = String(String.UnicodeScalarView(shown))
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return nil }
    return String(text[first...last].prefix(maxCharacters))
  }
}
