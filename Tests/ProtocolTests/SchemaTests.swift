import Protocol
import XCTest

/// Params checked against their declarations: each bad member is -32602
/// naming its full path; declared params read back typed, with defaults.
final class SchemaTests: XCTestCase {
  enum Order: String, CaseIterable { case newest, oldest }

  static let limit: Param<Int> = .integer("limit", 1...100, default: 20, "per page")
  static let name: Param<String> = .requiredString("name", maxLength: 5, "a name")
  static let tags: Param<[String]> = .strings("tags", maxLength: 10, "tags")
  static let order: Param<Order> = .choice("order", default: .newest, "the order")
  static let rect: Param<JSON?> = .value(
    "rect", .oneOf([.array(of: .number, minItems: 4, maxItems: 4), .string]), "a rect")
  static let note: Param<JSON?> = .value("note", .nullable(.string(minLength: 1)), "clearable")
  static let nested: Param<JSON?> = .value(
    "query", .object([Member("size", .integer(minimum: 1, maximum: 15))]), "nested")
  static let shape = ObjectShape([limit, name, tags, order, rect, note, nested])

  private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line)
    -> RPCError?
  {
    do {
      _ = try Params(try JSONParser.parse(text), checkedAgainst: Self.shape)
      XCTFail("accepted \(text)", file: file, line: line)
      return nil
    } catch let error as RPCError {
      XCTAssertEqual(error.code, RPCError.invalidParamsCode, file: file, line: line)
      return error
    } catch {
      XCTFail("\(error)", file: file, line: line)
      return nil
    }
  }

  private func field(_ text: String, file: StaticString = #filePath, line: UInt = #line)
    -> String?
  {
    error(text, file: file, line: line)?.data?["field"]?.stringValue
  }

  func testEveryBadMemberIsNamedByItsPath() {
    XCTAssertEqual(field(#"{}"#), "name")
    XCTAssertEqual(field(#"{"name":null}"#), "name")
    XCTAssertEqual(field(#"{"name":"abcdef"}"#), "name")
    XCTAssertEqual(field(#"{"name":"a","limit":0}"#), "limit")
    XCTAssertEqual(field(#"{"name":"a","limit":1.5}"#), "limit")
    XCTAssertEqual(field(#"{"name":"a","limit":"3"}"#), "limit")
    XCTAssertEqual(field(#"{"name":"a","tags":["a",2]}"#), "tags[1]")
    XCTAssertEqual(field(#"{"name":"a","order":"older"}"#), "order")
    XCTAssertEqual(field(#"{"name":"a","rect":[1,2,3]}"#), "rect")
    XCTAssertEqual(field(#"{"name":"a","rect":[1,2,"3",4]}"#), "rect[2]")
    XCTAssertEqual(field(#"{"name":"a","rect":true}"#), "rect")
    XCTAssertEqual(field(#"{"name":"a","note":""}"#), "note")
    XCTAssertEqual(field(#"{"name":"a","query":{"size":16}}"#), "query.size")
    XCTAssertEqual(field(#"{"name":"a","query":{"sise":1}}"#), "query.sise")
    XCTAssertEqual(field(#"[1]"#), "params")
  }

  func testReasonsSayWhatWasExpected() {
    XCTAssertEqual(
      error(#"{"name":"a","limit":0}"#)?.data?["reason"], "must be between 1 and 100, got 0")
    XCTAssertEqual(
      error(#"{"name":"a","limit":1.5}"#)?.data?["reason"], "expected an integer, got 1.5")
    XCTAssertEqual(
      error(#"{"name":"a","rect":true}"#)?.data?["reason"],
      "expected an array of 4 values or a string, got boolean")
    XCTAssertEqual(
      error(#"{"name":"a","order":"nwest"}"#)?.data?["reason"],
      #"must be one of "newest", "oldest"; did you mean "newest"?"#)
  }

  func testAnUnknownMemberListsTheNamesAndSuggestsTheNearOne() throws {
    let nearMiss = try XCTUnwrap(error(#"{"name":"a","tag":["x"]}"#))
    XCTAssertEqual(nearMiss.message, "Unknown parameter tag; did you mean tags?")
    XCTAssertEqual(nearMiss.data?["reason"], "unknown parameter")
    XCTAssertEqual(nearMiss.data?["suggestion"], "tags")
    XCTAssertEqual(
      nearMiss.data?["expected"], ["limit", "name", "tags", "order", "rect", "note", "query"])
    let farOff = try XCTUnwrap(error(#"{"name":"a","colour":1}"#))
    XCTAssertEqual(farOff.data?["field"], "colour")
    XCTAssertNil(farOff.data?["suggestion"])
    XCTAssertTrue(
      farOff.message.english.hasPrefix("Unknown parameter colour; expected one of limit"))
  }

  func testALenientShapeLetsUnknownMembersThrough() throws {
    let lenient = ObjectShape([Self.limit], strict: false)
    let params = try Params(
      try JSONParser.parse(#"{"limit":3,"editor":"x"}"#), checkedAgainst: lenient)
    XCTAssertEqual(params[Self.limit], 3)
  }

  func testDeclaredParamsReadTypedWithDefaults() throws {
    let params = try Params(
      try JSONParser.parse(#"{"name":"ab","tags":["x"],"limit":7.0,"note":null}"#),
      checkedAgainst: Self.shape)
    XCTAssertEqual(params[Self.name], "ab")
    XCTAssertEqual(params[Self.limit], 7)
    XCTAssertEqual(params[Self.tags], ["x"])
    XCTAssertEqual(params[Self.order], .newest)
    XCTAssertEqual(params[Self.note], .null)
    XCTAssertNil(params[Self.rect])
  }

  func testNearestNameWantsOneClearCandidate() {
    XCTAssertEqual(NearestName.suggestion(for: "tag", among: ["tags", "author"]), "tags")
    XCTAssertEqual(NearestName.suggestion(for: "limt", among: ["limit", "page"]), "limit")
    XCTAssertEqual(NearestName.suggestion(for: "suplierID", among: ["supplierId"]), "supplierId")
    XCTAssertEqual(NearestName.suggestion(for: "pgae", among: ["page", "size"]), "page")
    XCTAssertNil(NearestName.suggestion(for: "z", among: ["x", "y"]))
    XCTAssertNil(NearestName.suggestion(for: "offset", among: ["cursor", "limit"]))
  }

  func testTheSchemaIsPublishedAsJSONSchema() {
    XCTAssertEqual(
      Self.limit.member.paramSchema,
      ["type": "integer", "minimum": 1, "maximum": 100, "default": 20])
    XCTAssertEqual(
      Schema.nullable(.string(maxLength: 3)).jsonSchema,
      ["type": ["string", "null"], "maxLength": 3])
    XCTAssertEqual(
      Schema.object([Member("a", .boolean, required: true, "yes or no")]).jsonSchema,
      [
        "type": "object", "required": ["a"],
        "properties": ["a": ["type": "boolean", "description": "yes or no"]],
        "additionalProperties": false,
      ])
  }
}
