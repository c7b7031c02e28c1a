import Protocol
import Services

/// `places/categories {}` → `{items: [{code, name}]}`: Kakao Local's 18 category groups.
enum PlacesCategories {
  static let method = Method.inline("places/categories") { params, context in
    _ = try Params(params)
    return ["items": .array(context.daemon.services.places.categories.map(\.json))]
  }
}
