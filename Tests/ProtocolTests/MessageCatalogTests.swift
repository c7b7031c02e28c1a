import FoundationEssentials
import Protocol
import XCTest

/// Every text a person reads exists in both languages: each text the
/// sources write is in `MessageCatalog`, with the same placeholders in Korean.
final class MessageCatalogTests: XCTestCase {
  static let sources: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/Sources"
  }()

  /// The English templates the sources write, as `LocalizedText` makes them:
  /// the reasons of invalid params, the messages of wire errors, the nouns of
  /// what was not found, and marked phrases.
  static func templatesInSources() throws -> [String: String] {
    let literal = #""((?:[^"\\]|\\.)*)""#
    let patterns = [
      #"(?:InvalidArgument\(|invalidParams\()[\s\S]{0,200}?reason:\s*"# + literal,
      #"NotFound\([\s\S]{0,80}?resource:\s*"# + literal,
      #"\.phrase\(\s*"# + literal,
      #"LocalizedText\s*=\s*"# + literal,
    ]
    var found: [String: String] = [:]
    let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: sources))
      .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("MessageCatalog.swift") }
    for file in files {
      let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
      var scanned = patterns.map { try! Regex($0) }
      if file.hasSuffix("RPCError.swift") { scanned.append(try Regex(#"message:\s*"# + literal)) }
      for pattern in scanned {
        for match in text.matches(of: pattern) {
          guard let body = match.output[1].substring else { continue }
          found[template(of: String(body))] = file
        }
      }
    }
    return found
  }

  /// A Swift literal's text as its template: each interpolation `\(…)` becomes `{n}`.
  static func template(of literal: String) -> String {
    var result = ""
    var index = literal.startIndex
    var count = 0
    while index < literal.endIndex {
      let character = literal[index]
      let next = literal.index(after: index)
      if character == "\\", next < literal.endIndex {
        if literal[next] == "(" {
          var depth = 0
          var end = next
          repeat {
            if literal[end] == "(" { depth += 1 }
            if literal[end] == ")" { depth -= 1 }
            end = literal.index(after: end)
          } while depth > 0 && end < literal.endIndex
          result += "{\(count)}"
          count += 1
          index = end
          continue
        }
        result.append(literal[next])
        index = literal.index(after: next)
        continue
      }
      result.append(character)
      index = next
    }
    return result
  }

  func testEveryTextTheSourcesWriteHasItsKorean() throws {
    let templates = try Self.templatesInSources()
    XCTAssertGreaterThan(templates.count, 60, "the scan finds the texts")
    for (template, file) in templates.sorted(by: { $0.key < $1.key }) {
      XCTAssertNotNil(
        MessageCatalog.korean[template], "no Korean for \"\(template)\" (\(file)) in MessageCatalog"
      )
    }
  }

  func testEachTranslationHasTheSamePlaceholdersAndIsKorean() throws {
    let placeholder = try Regex(#"\{[0-9]+\}"#)
    for (english, korean) in MessageCatalog.korean {
      XCTAssertFalse(english.isEmpty || korean.isEmpty, english)
      XCTAssertEqual(
        english.matches(of: placeholder).map { english[$0.range] }.sorted(),
        korean.matches(of: placeholder).map { korean[$0.range] }.sorted(), english)
      let onlyPlaceholders = english.replacing(placeholder, with: "").allSatisfy {
        !$0.isLetter
      }
      if !onlyPlaceholders && english != "null" {
        XCTAssert(
          korean.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) },
          "\"\(korean)\" is not Korean")
      }
    }
  }

  func testMessagesReadInTheSessionsLanguage() {
    let error = RPCError.invalidParams(field: "limit", reason: "must be at least \(1), got \(0)")
    XCTAssertEqual(
      error.message.text(in: .english), "Invalid parameter limit: must be at least 1, got 0.")
    XCTAssertEqual(
      error.message.text(in: .korean), "매개변수 limit이(가) 올바르지 않습니다: 1 이상이어야 합니다. 받은 값: 0.")
    XCTAssertEqual(error.data?["reason"], "must be at least 1, got 0", "data stays English")
  }

  func testAnUpstreamsOwnMessageIsTheMessage() {
    let error = RPCError.upstreamRefused(service: "products", status: 400, message: "이름을 입력하세요")
    XCTAssertEqual(error.message.text(in: .english), "이름을 입력하세요")
    XCTAssertEqual(
      error.data?["summary"], "The products server answered with an error; try again later.")
    XCTAssertEqual(
      RPCError.upstreamError(service: "products", status: 502, detail: nil).message
        .text(in: .korean), "상품 서버가 오류로 응답했습니다. 잠시 후 다시 시도하세요.")
  }

  func testTheLocaleComesFromTheTagOrTheEnvironment() {
    XCTAssertEqual(MessageLocale(identifier: "ko-KR"), .korean)
    XCTAssertEqual(MessageLocale(identifier: "en_US.UTF-8"), .english)
    XCTAssertNil(MessageLocale(identifier: "fr"))
    XCTAssertEqual(MessageLocale.fromEnvironment(["LANG": "ko_KR.UTF-8"]), .korean)
    XCTAssertEqual(
      MessageLocale.fromEnvironment(["LC_ALL": "C", "LANG": "ko_KR.UTF-8"]), .english)
    XCTAssertEqual(
      MessageLocale.fromEnvironment(["LC_ALL": "", "LC_MESSAGES": "ko", "LANG": "C"]), .korean)
    XCTAssertEqual(MessageLocale.fromEnvironment([:]), .english)
  }

  func testAValueHoldingABraceIsNotTakenForAPlaceholder() {
    let text: LocalizedText = "expected [minX, minY, maxX, maxY], got \"\("{1}")\""
    XCTAssertEqual(text.text(in: .korean), "[minX, minY, maxX, maxY]여야 합니다. 받은 값: \"{1}\"")
  }
}
