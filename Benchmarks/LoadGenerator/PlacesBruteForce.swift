import Services

/// The baseline without any index: every place is looked at, its category
/// compared, and the exact distance of each one of the category computed
/// (the formula the daemon uses, on the same numbers).
struct PlacesBruteForce {
  let data: PlacesDataSet

  func search(_ query: PlacesQuery) -> PlacesNearestPage {
    var page = PlacesNearestPage()
    let category = query.category.rawValue
    let radius = Double(query.radius)
    let cosY = PlaceGeometry.cosLatitude(query.y)
    data.categories.withUnsafeBufferPointer { categories in
      for number in categories.indices where categories[number] == category {
        let metres = PlaceGeometry.distance(
          x1: query.x, y1: query.y, cosY1: cosY, x2: data.xs[number], y2: data.ys[number],
          cosY2: data.cosYs[number])
        if metres <= radius { page.offer(metres: metres, number: Int32(number)) }
      }
    }
    return page
  }
}
