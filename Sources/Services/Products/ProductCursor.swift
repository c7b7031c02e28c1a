import Protocol

/// A keyset position in a product list, opaque to clients: the sort key and
/// id of the last product of a page, plus the sort and filters it belongs to.
///
/// The next page starts strictly after that key, so it costs what the first
/// page costs and stays correct while products are added or deleted.
struct ProductCursor: Hashable {
  /// The sort key of the last product shown: an integer (time, price) or the Korean name.
  enum Key: Hashable {
    case integer(Int64)
    case text(String)
  }

  let sort: ProductSort
  /// A digest of `query` and `supplierId`, so a cursor is not used with other filters.
  let filter: UInt64
  let key: Key
  let id: Int64

  init(sort: ProductSort, filter: UInt64, key: Key, id: Int64) {
    self.sort = sort
    self.filter = filter
    self.key = key
    self.id = id
  }

  /// The FNV-1a digest of the filters (stable across processes, unlike `Hasher`).
  static func filterDigest(query: String?, supplierId: String?) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in Array((query ?? "\u{0}").utf8) + [0xFF] + Array((supplierId ?? "\u{0}").utf8) {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// `base64url(JSON)`: compact and printable, not meant to be read. The JSON
  /// is `{"s":sort,"f":hex filter,"k":key,"i":id}`, written straight into bytes
  /// (every page with more after it makes one; a `JSON` tree of it cost as
  /// much as two of the page's rows).
  var encoded: String {
    var json: [UInt8] = []
    json.reserveCapacity(80)
    JSONWriter.writeLiteral(#"{"s":"#, into: &json)
    JSONWriter.writeString(sort.rawValue, into: &json)
    JSONWriter.writeLiteral(#","f":""#, into: &json)
    Self.writeHex(filter, into: &json)
    JSONWriter.writeLiteral(#"","k":"#, into: &json)
    switch key {
    case .integer(let value): JSONWriter.writeInteger(Int(value), into: &json)
    case .text(let value): JSONWriter.writeString(value, into: &json)
    }
    JSONWriter.writeLiteral(#","i":"#, into: &json)
    JSONWriter.writeInteger(Int(id), into: &json)
    json.append(UInt8(ascii: "}"))
    return Base64URL.encode(json)
  }

  /// `String(value, radix: 16)`'s digits, without the string.
  private static func writeHex(_ value: UInt64, into output: inout [UInt8]) {
    let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
    for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
      let nibble = UInt8((value >> UInt64(shift)) & 0xF)
      output.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
    }
  }

  /// Reads a cursor issued for `sort` and `filter`.
  /// - Throws: `InvalidArgument` (field `cursor`) for anything else.
  init(decoding text: String, sort: ProductSort, filter: UInt64) throws(InvalidArgument) {
    let invalid = InvalidArgument(field: "cursor", reason: "not a cursor of this list")
    guard let bytes = Base64URL.decode(text), let json = try? JSONParser.parse(bytes),
      let sortName = json["s"]?.stringValue, let id = json["i"]?.intValue,
      let filterText = json["f"]?.stringValue, let digest = UInt64(filterText, radix: 16)
    else { throw invalid }
    guard sortName == sort.rawValue, digest == filter else {
      throw InvalidArgument(
        field: "cursor", reason: "belongs to another sort or filter; start again without a cursor")
    }
    switch (sort, json["k"]) {
    case (.name, .string(let name)?): key = .text(name)
    case (.newest, .number(let number)?), (.priceAsc, .number(let number)?),
      (.priceDesc, .number(let number)?):
      guard let value = number.intValue else { throw invalid }
      key = .integer(Int64(value))
    default: throw invalid
    }
    self.sort = sort
    self.filter = filter
    self.id = Int64(id)
  }
}
