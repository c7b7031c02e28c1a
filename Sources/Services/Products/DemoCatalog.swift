/// The catalog a fresh data dir starts with, so the product manager shows
/// something at once: grocery suppliers and a few hundred products with
/// Korean and English names, made deterministically from word lists.
public enum DemoCatalog {
  public struct Item: Sendable {
    public let nameKo: String
    public let nameEn: String?
    public let price: Int
    /// Index into `suppliers`, or `nil` for a product without supplier.
    public let supplier: Int?
    /// Seconds before the seeding time, so "newest" has a spread to sort.
    public let ageSeconds: Int
    /// Which of `kinds` it is: its picture.
    public let kind: Int
  }

  public static let suppliers = [
    "한빛식품", "서울우유협동조합", "바른농장", "제주청정농산", "동해수산", "풀잎베이커리",
    "산들음료", "오뚜기마트 물류", "새벽유통", "가온생활",
  ]

  /// (Korean, English, base price in won, supplier index).
  private static let goods: [(String, String, Int, Int)] = [
    ("우유", "Milk", 2_650, 1), ("저지방 우유", "Low-Fat Milk", 2_790, 1),
    ("두부", "Tofu", 1_800, 0), ("계란", "Eggs", 6_900, 2), ("배추김치", "Napa Cabbage Kimchi", 12_900, 0),
    ("깍두기", "Cubed Radish Kimchi", 9_800, 0), ("신라면", "Shin Ramyun", 4_500, 7),
    ("햇반", "Cooked Rice", 1_650, 7), ("사과", "Apples", 15_900, 3), ("배", "Korean Pears", 19_900, 3),
    ("귤", "Tangerines", 12_500, 3), ("감자", "Potatoes", 5_400, 2),
    ("고구마", "Sweet Potatoes", 7_200, 2),
    ("양파", "Onions", 3_900, 2), ("대파", "Green Onions", 2_980, 2), ("마늘", "Garlic", 8_900, 2),
    ("고등어", "Mackerel", 6_500, 4), ("갈치", "Hairtail Fish", 18_000, 4), ("오징어", "Squid", 9_900, 4),
    ("김", "Seasoned Laver", 3_980, 4), ("미역", "Dried Seaweed", 4_200, 4),
    ("식빵", "Sliced Bread", 3_200, 5),
    ("단팥빵", "Red Bean Bun", 1_900, 5), ("크루아상", "Croissant", 2_800, 5),
    ("보리차", "Barley Tea", 1_500, 6),
    ("옥수수수염차", "Corn Silk Tea", 1_600, 6), ("식혜", "Sikhye Rice Punch", 2_300, 6),
    ("생수", "Mineral Water", 950, 6), ("된장", "Soybean Paste", 7_800, 0),
    ("고추장", "Gochujang", 8_600, 0),
    ("참기름", "Sesame Oil", 11_900, 0), ("간장", "Soy Sauce", 6_400, 0),
    ("떡볶이 떡", "Rice Cakes", 3_500, 0),
    ("만두", "Dumplings", 8_900, 7), ("어묵", "Fish Cakes", 4_300, 4), ("요구르트", "Yogurt", 3_600, 1),
    ("치즈", "Cheese Slices", 5_900, 1), ("버터", "Butter", 8_200, 1),
    ("세제", "Laundry Detergent", 15_800, 9),
    ("주방세제", "Dish Soap", 4_900, 9), ("휴지", "Toilet Paper", 18_900, 9),
    ("칫솔", "Toothbrushes", 6_500, 9),
    ("샴푸", "Shampoo", 12_800, 9), ("녹차", "Green Tea", 7_900, 6),
    ("믹스커피", "Instant Coffee Mix", 13_500, 8),
    ("참치캔", "Canned Tuna", 2_700, 8), ("스팸", "Luncheon Meat", 5_200, 8), ("쌀", "Rice", 32_000, 2),
  ]

  /// Each good's silhouette and colour on its picture, in the order of `goods`.
  private static let looks: [(ProductShelf, (UInt8, UInt8, UInt8))] = [
    (.carton, (66, 133, 244)), (.carton, (120, 190, 255)), (.box, (236, 228, 200)),
    (.round, (214, 170, 110)), (.jar, (200, 40, 30)), (.jar, (220, 90, 40)), (.box, (200, 20, 30)),
    (.box, (240, 240, 235)), (.round, (210, 30, 40)), (.round, (225, 200, 120)),
    (.round, (250, 150, 20)), (.round, (170, 130, 80)), (.round, (150, 60, 110)),
    (.round, (200, 160, 90)), (.bottle, (60, 160, 60)), (.round, (235, 230, 215)),
    (.fish, (70, 110, 150)), (.fish, (190, 200, 210)), (.fish, (230, 170, 150)),
    (.box, (30, 60, 30)), (.box, (40, 80, 50)), (.loaf, (220, 170, 100)),
    (.round, (180, 110, 60)), (.loaf, (230, 160, 70)), (.bottle, (170, 110, 50)),
    (.bottle, (230, 200, 90)), (.can, (240, 220, 170)), (.bottle, (80, 170, 230)),
    (.jar, (140, 90, 40)), (.jar, (190, 30, 30)), (.bottle, (190, 140, 40)),
    (.bottle, (50, 30, 20)), (.box, (245, 245, 240)), (.box, (230, 220, 200)),
    (.box, (210, 180, 140)), (.bottle, (250, 240, 230)), (.box, (250, 200, 40)),
    (.box, (250, 230, 150)), (.box, (60, 120, 220)), (.bottle, (120, 200, 90)),
    (.box, (245, 245, 250)), (.box, (80, 180, 200)), (.bottle, (160, 60, 180)),
    (.box, (90, 150, 60)), (.box, (200, 120, 40)), (.can, (60, 90, 160)), (.can, (40, 80, 160)),
    (.box, (250, 250, 245)),
  ]

  /// The kinds of good, named from their English names ("low-fat-milk"):
  /// the names of their pictures (`DemoProductImages`).
  public static let kinds: [String] = goods.map { good in
    var slug = ""
    for character in good.1.lowercased() {
      if character.isLetter || character.isNumber {
        slug.append(character)
      } else if !slug.isEmpty, slug.last != "-" {
        slug.append("-")
      }
    }
    return slug
  }

  /// The silhouette and colour of the picture of kind `index`.
  static func look(_ index: Int) -> (ProductShelf, (UInt8, UInt8, UInt8)) {
    looks[index]
  }

  /// (Korean, English, price factor in percent).
  private static let variants: [(String, String, Int)] = [
    ("", "", 100), ("유기농 ", "Organic ", 145), ("국산 ", "Domestic ", 120),
    ("대용량 ", "Family Size ", 180),
    ("프리미엄 ", "Premium ", 160), ("무첨가 ", "Additive-Free ", 130), ("저염 ", "Low-Sodium ", 115),
  ]

  private static let sizes = ["", " 1개", " 2개입", " 500g", " 1kg", " 1L", " 6입", " 10개입"]

  /// `count` products (default 300), the same on every machine.
  public static func items(count: Int = 300) -> [Item] {
    var generator = SplitMix64(seed: 2024)
    var seen = Set<String>()
    var items: [Item] = []
    while items.count < count {
      let kind = Int(generator.next() % UInt64(goods.count))
      let good = goods[kind]
      let variant = variants[Int(generator.next() % UInt64(variants.count))]
      let size = sizes[Int(generator.next() % UInt64(sizes.count))]
      let nameKo = variant.0 + good.0 + size
      guard seen.insert(nameKo).inserted else { continue }
      let englishSize = size.replacingKoreanUnits()
      // About one product in ten has no English name, and one in twelve no supplier.
      let nameEn = generator.next() % 10 == 0 ? nil : variant.1 + good.1 + englishSize
      let supplier = generator.next() % 12 == 0 ? nil : good.3
      let price = (good.2 * variant.2 / 100 + Int(generator.next() % 20) * 10) / 10 * 10
      items.append(
        Item(
          nameKo: nameKo, nameEn: nameEn, price: price, supplier: supplier,
          ageSeconds: Int(generator.next() % (90 * 86_400)), kind: kind))
    }
    return items
  }
}

extension DemoCatalog {
  /// How `bulkItems` makes its products: benchmarks seed their catalogs anew
  /// when it changes.
  public static let bulkVersion = 2

  /// `count` generated products for load tests and benchmarks (a million
  /// and more): names may repeat, as they do across sellers. They are items
  /// `first..<first + count` of a catalog of `total` grown over three years
  /// by creates, so each was created after the ones before it (newer ones
  /// get higher ids, as through `products/create`).
  public static func bulkItems(count: Int, seed: UInt64 = 7, first: Int = 0, of total: Int? = nil)
    -> [Item]
  {
    var generator = SplitMix64(seed: seed)
    let total = max(total ?? count, 1)
    let span = 3 * 365 * 86_400
    return (first..<(first + count)).map { position in
      let kind = Int(generator.next() % UInt64(goods.count))
      let good = goods[kind]
      let variant = variants[Int(generator.next() % UInt64(variants.count))]
      let size = sizes[Int(generator.next() % UInt64(sizes.count))]
      return Item(
        nameKo: variant.0 + good.0 + size, nameEn: variant.1 + good.1 + size.replacingKoreanUnits(),
        price: (good.2 * variant.2 / 100 + Int(generator.next() % 500) * 10) / 10 * 10,
        supplier: generator.next() % 12 == 0
          ? nil : Int(generator.next() % UInt64(suppliers.count)),
        ageSeconds: (total - 1 - position) * span / total, kind: kind)
    }
  }
}

extension String {
  /// " 2개입" → " (2 pack)", " 1개" → "", sizes in g/kg/L unchanged.
  fileprivate func replacingKoreanUnits() -> String {
    if hasSuffix("개입") || hasSuffix("입") {
      let digits = filter(\.isNumber)
      return " (\(digits) pack)"
    }
    if hasSuffix("개") { return "" }
    return self
  }
}
