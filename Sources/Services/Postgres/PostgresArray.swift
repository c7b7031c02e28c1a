/// The text form of a one-dimensional PostgreSQL array (`{"a","b",NULL}`),
/// bound as one parameter and cast (`$1::text[]`), so a batch of rows is one
/// statement without any value in the SQL.
enum PostgresArray {
  static func literal(_ values: [String?]) -> String {
    var text = "{"
    for (index, value) in values.enumerated() {
      if index > 0 { text.append(",") }
      guard let value else {
        text.append("NULL")
        continue
      }
      text.append("\"")
      // By scalar: a quote followed by a combining mark is one Character,
      // which compares unequal to a quote, but is still a quote to PostgreSQL.
      for scalar in value.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { text.unicodeScalars.append("\\") }
        text.unicodeScalars.append(scalar)
      }
      text.append("\"")
    }
    return text + "}"
  }
}
