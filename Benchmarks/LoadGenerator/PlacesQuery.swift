import Services

/// One search as every contender runs it: the places of a category within
/// `radius` metres of a centre, nearest first, the first page of 15.
struct PlacesQuery {
  static let pageSize = 15

  let category: PlaceCategory
  let x: Double
  let y: Double
  let radius: Int

  var center: PlaceCoordinate { PlaceCoordinate(x: x, y: y) }

  /// The `places/search` request, as the NDJSON client sends it.
  var request: String {
    #""places/search","params":{"category":"\#(category.code)","x":\#(x),"y":\#(y),"radius":\#(radius),"sort":"distance","size":\#(Self.pageSize)}"#
  }
}
