/// How both catalog databases search names: a substring of `search_text`,
/// which holds both names lowercased by Swift (every script, not just ASCII).
enum ProductSearch {
  /// The `search_text` of a product with these names.
  static func text(nameKo: String, nameEn: String?) -> String {
    (nameKo + "\n" + (nameEn ?? "")).lowercased()
  }

  /// The LIKE pattern (escape character `\`) that finds `query` anywhere in `search_text`.
  static func likePattern(_ query: String) -> String {
    var escaped = "%"
    // By scalar: "%" followed by a combining mark is one Character, unequal
    // to "%", but the database still reads a "%".
    for scalar in query.lowercased().unicodeScalars {
      if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped + "%"
  }
}
