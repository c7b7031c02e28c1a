import Protocol

/// `places/categories {}` → `{items: [{code, name}]}`: Kakao Local's 18 category groups.
enum PlacesCategories {
  static let contract = MethodContract(
    "places/categories", "The 18 Kakao Local category group codes with their Korean names.",
    result: MethodResult(
      "PlaceCategories",
      .object([
        Member(
          "items",
          .array(
            of: .object([
              Member("code", PlaceSchemas.categoryCode, required: true),
              Member("name", .string, required: true),
            ])), required: true)
      ])))

  static let method = Method.inline(contract) { _, context in
    ["items": .array(context.daemon.services.places.categories.map(\.json))]
  }
}
