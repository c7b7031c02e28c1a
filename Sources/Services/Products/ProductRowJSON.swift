import Protocol

/// Writes products' JSON straight from their rows in the SQLite catalog (the
/// columns of `SQLiteProductBackend.selectProduct`), the same text
/// `Product.json` and `ProductPage.json` serialize to, without making the
/// `Product`, its strings or a `JSON` tree first: for the reads answered on
/// the reader thread, where making and freeing them took longer than reading
/// the rows (profile in Benchmarks/README.md, "Reads at the speed of the pipe").
enum ProductRowJSON {
  /// Writes the product of `row`, its demo picture's stored form made a URL
  /// by `images`, in the member order of `Product.json`.
  static func write(_ row: SQLiteColumns, images: DemoProductImages, into output: inout JSONBuffer)
    throws
  {
    JSONWriter.writeLiteral(#"{"id":""#, into: &output)
    JSONWriter.writeInteger(Int(try row.int64(0)), into: &output)
    JSONWriter.writeLiteral(#"","nameKo":"#, into: &output)
    JSONWriter.writeString(utf8: try row.textBytes(1), into: &output)
    JSONWriter.writeLiteral(#","nameEn":"#, into: &output)
    if let nameEn = try row.nullableTextBytes(2) {
      JSONWriter.writeString(utf8: nameEn, into: &output)
    } else {
      JSONWriter.writeLiteral("null", into: &output)
    }
    JSONWriter.writeLiteral(#","price":"#, into: &output)
    JSONWriter.writeInteger(Int(try row.int64(3)), into: &output)
    JSONWriter.writeLiteral(#","supplier":"#, into: &output)
    if let supplier = try row.nullableInt64(4) {
      JSONWriter.writeLiteral(#"{"id":""#, into: &output)
      JSONWriter.writeInteger(Int(supplier), into: &output)
      JSONWriter.writeLiteral(#"","name":"#, into: &output)
      JSONWriter.writeString(utf8: try row.textBytes(5), into: &output)
      output.append(UInt8(ascii: "}"))
    } else {
      JSONWriter.writeLiteral("null", into: &output)
    }
    let created = try row.int64(6)
    let updated = try row.int64(7)
    let createdText = RFC3339.Text(microseconds: created)
    JSONWriter.writeLiteral(#","createdAt":""#, into: &output)
    createdText.write(into: &output)
    JSONWriter.writeLiteral(#"","updatedAt":""#, into: &output)
    // Until a product changes, its two times are one.
    (updated == created ? createdText : RFC3339.Text(microseconds: updated)).write(into: &output)
    JSONWriter.writeLiteral(#"","version":"#, into: &output)
    JSONWriter.writeInteger(Int(try row.int64(8)), into: &output)
    JSONWriter.writeLiteral(#","imageUrl":"#, into: &output)
    if let imageURL = try row.nullableTextBytes(9) {
      images.writeURL(stored: imageURL, into: &output)
    } else {
      JSONWriter.writeLiteral("null", into: &output)
    }
    output.append(UInt8(ascii: "}"))
  }

  /// Writes the page of products that `statement` (bound, not yet stepped)
  /// returns, fetched with `limit + 1` rows as `ProductRow.page` takes them:
  /// `{items, nextCursor, totalCount}`, the cursor made from the last item.
  static func writePage(
    _ statement: SQLiteStatement, limit: Int, sort: ProductSort, filter: UInt64, totalCount: Int,
    images: DemoProductImages, into output: inout JSONBuffer
  ) throws {
    JSONWriter.writeLiteral(#"{"items":["#, into: &output)
    var written = 0
    var last: (id: Int64, key: ProductCursor.Key)?
    var more = false
    while try statement.step() {
      guard written < limit else {
        more = true
        break
      }
      if written > 0 { output.append(UInt8(ascii: ",")) }
      try statement.withColumns { row in
        try write(row, images: images, into: &output)
        // Only the page's last row makes a cursor, and only when a row follows it.
        guard written == limit - 1 else { return }
        let key: ProductCursor.Key =
          switch sort {
          case .newest: .integer(try row.int64(6))
          case .priceAsc, .priceDesc: .integer(try row.int64(3))
          case .name: .text(try row.text(1))
          }
        last = (try row.int64(0), key)
      }
      written += 1
    }
    JSONWriter.writeLiteral(#"],"nextCursor":"#, into: &output)
    if more, let last {
      JSONWriter.writeString(
        ProductCursor(sort: sort, filter: filter, key: last.key, id: last.id).encoded,
        into: &output)
    } else {
      JSONWriter.writeLiteral("null", into: &output)
    }
    JSONWriter.writeLiteral(#","totalCount":"#, into: &output)
    JSONWriter.writeInteger(totalCount, into: &output)
    output.append(UInt8(ascii: "}"))
  }
}
