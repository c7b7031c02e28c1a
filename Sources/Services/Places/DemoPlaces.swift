import Glibc

/// The places a fresh data dir starts with, so the map shows something at
/// once: about 50,000 places of all 18 categories over Seoul, with names,
/// phones, addresses and page links in Kakao's style, made deterministically.
///
/// Density follows the city: districts are weighted by their commerce,
/// shops, cafés, clinics and restaurants crowd around subway stations,
/// restaurants and cafés are the most numerous, stations sit on their real
/// positions. Every point lies inside one of Seoul's 법정동 (`DemoSeoulMap`,
/// from NGII's boundaries), and the lot-number address names that 동 and its
/// 구; a point that falls outside the city, or too near a boundary, is drawn
/// again. Ids are Kakao-like decimal numbers, increasing. Any `count` can be
/// made (benchmarks use a million); the same count gives the same places.
public enum DemoPlaces {
  /// The size of the demo dataset.
  public static let defaultCount = 50_000

  /// Category shares per 10,000 places.
  static let shares: [(PlaceCategory, Int)] = [
    (.restaurant, 3_400), (.cafe, 1_200), (.academy, 1_000), (.hospital, 800),
    (.convenienceStore, 700), (.realEstateAgency, 700), (.kindergarten, 440), (.parking, 400),
    (.pharmacy, 360), (.lodging, 180), (.bank, 160), (.school, 140), (.publicInstitution, 140),
    (.culture, 120), (.gasStation, 100), (.attraction, 80), (.largeMart, 30),
    (.subwayStation, 30),
  ]

  /// A digest of the first 1,000 places: it changes whenever the generation
  /// does, so files of generated places (the benchmarks' `places-N-<digest>`)
  /// are made again rather than reused stale.
  public static let fingerprint: String = {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    generate(count: 1_000) { place in
      let fields = [
        place.id, place.placeName, place.categoryName, place.phone, place.addressName,
        place.roadAddressName, place.placeUrl, String(place.x), String(place.y),
      ]
      for byte in fields.joined(separator: "\u{1F}").utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
      }
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }()

  /// `count` places, the same on every machine.
  public static func places(count: Int = defaultCount, seed: UInt64 = 2024) -> [Place] {
    var places: [Place] = []
    places.reserveCapacity(count)
    generate(count: count, seed: seed) { places.append($0) }
    return places
  }

  /// Makes `count` places one at a time (a million need not be in memory at once).
  public static func generate(
    count: Int = defaultCount, seed: UInt64 = 2024, _ body: (Place) throws -> Void
  ) rethrows {
    var generator = DemoPlaceGenerator(seed: seed)
    for _ in 0..<max(count, 0) {
      try body(generator.next())
    }
  }
}

/// The state of one demo run: the random sequence, the next id, and how many
/// places of each category were made (stations and landmarks go in order).
struct DemoPlaceGenerator {
  private var random: SplitMix64
  private var nextID: UInt64 = 8_000_000
  private var made = [Int](repeating: 0, count: PlaceCategory.allCases.count)

  private static let templates = PlaceCategory.allCases.map { DemoPlaceTemplate.all($0) }
  private static let templateWeights = templates.map { $0.reduce(0) { $0 + $1.weight } }
  private static let districtWeight = DemoSeoul.districts.reduce(0) { $0 + $1.weight }
  private static let shareTotal = DemoPlaces.shares.reduce(0) { $0 + $1.1 }
  private static let map = DemoSeoulMap.shared
  /// Neighbourhood names without `동` or `N가`, per 법정동: `성수동1가` → `성수`.
  private static let stems = map.dongs.map { stem(ofDong: $0.name) }
  /// The district (roads, name) of each 법정동.
  private static let districtOfDong: [Int] = map.dongs.map { dong in
    guard let index = DemoSeoul.districts.firstIndex(where: { $0.name == dong.gu }) else {
      preconditionFailure("DemoSeoul has no district \(dong.gu)")
    }
    return index
  }

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  mutating func next() -> Place {
    let category = pickCategory()
    let ordinal = made[Int(category.rawValue)]
    made[Int(category.rawValue)] += 1
    nextID += 1 + random.next() % 997
    let id = String(nextID)

    // Where: a station's surroundings or a district's, by category; the
    // address is that of the 법정동 holding the point.
    let spot = place(category, ordinal: ordinal)
    let (x, y) = (spot.x, spot.y)
    let dong = Self.map.dongs[spot.dong]
    let districtIndex = Self.districtOfDong[spot.dong]
    let district = DemoSeoul.districts[districtIndex]
    // A road that nearby places share.
    let road = district.roads[
      Self.cellHash(x: x, y: y, size: 0.007, salt: 2) % district.roads.count]
    let station =
      category == .subwayStation
      ? DemoSeoul.stations[ordinal % DemoSeoul.stations.count]
      : nearestStation(x: x, y: y)
    var context = Context(
      district: district, dong: dong.name, stem: Self.stems[spot.dong], road: road,
      station: station)

    let name: String
    let categoryName: String
    if let landmark = spot.landmark {
      (name, categoryName) = (landmark.name, landmark.categoryName)
    } else {
      let template = pickTemplate(category)
      name = fill(template.parts, &context)
      categoryName = template.categoryName.replacing("{line}", with: station.line)
    }

    let lot =
      random.next() % 10 < 6
      ? "\(1 + random.next() % 900)-\(1 + random.next() % 60)"
      : "\(1 + random.next() % 900)"
    let roadNumber = 1 + random.next() % 480
    let roadAddress: String
    switch random.next() % 20 {
    case 0: roadAddress = ""
    case 1...6:
      // The side streets of `명동길` are `명동8길`; of `테헤란로`, `테헤란로8길`.
      let stem = road.hasSuffix("길") ? String(road.dropLast()) : road
      roadAddress = "서울 \(district.name) \(stem)\(1 + random.next() % 40)길 \(roadNumber)"
    default: roadAddress = "서울 \(district.name) \(road) \(roadNumber)"
    }
    return Place(
      id: id, placeName: name, category: category, categoryName: categoryName,
      phone: phone(
        category, categoryName: categoryName, line: station.line,
        landmark: spot.landmark != nil),
      addressName: "서울 \(district.name) \(dong.name) \(lot)",
      roadAddressName: roadAddress, x: x, y: y, placeUrl: "http://place.map.kakao.com/\(id)")
  }

  // MARK: - Positions

  /// Where a place of `category` lies, and the 법정동 holding it (an index of
  /// `DemoSeoulMap`): drawn again until the point is well inside one.
  private mutating func place(_ category: PlaceCategory, ordinal: Int) -> (
    x: Double, y: Double, dong: Int, landmark: DemoSeoul.Landmark?
  ) {
    switch category {
    case .subwayStation:
      let station = DemoSeoul.stations[ordinal % DemoSeoul.stations.count]
      let spot = settle(around: station.x, station.y, metres: 40)
      return (spot.x, spot.y, spot.dong, nil)
    case .attraction where ordinal < DemoSeoul.landmarks.count:
      // On its own position unless that is too near a boundary (a stream, a road).
      let landmark = DemoSeoul.landmarks[ordinal]
      if let dong = Self.map.dong(x: landmark.x, y: landmark.y) {
        return (landmark.x, landmark.y, dong, landmark)
      }
      let spot = settle(around: landmark.x, landmark.y, metres: 30)
      return (spot.x, spot.y, spot.dong, landmark)
    default:
      let nearStation: Double =
        switch category {
        case .restaurant, .cafe, .convenienceStore, .hospital, .pharmacy, .bank, .academy,
          .realEstateAgency, .lodging:
          0.55
        default: 0.15
        }
      while true {
        var (x, y): (Double, Double)
        if unit() < nearStation {
          let station = DemoSeoul.stations[Int(random.next() % UInt64(DemoSeoul.stations.count))]
          (x, y) = jitter(station.x, station.y, metres: 380)
        } else {
          let district = pickDistrict()
          (x, y) = jitter(district.x, district.y, metres: category == .largeMart ? 1_800 : 1_300)
        }
        (x, y) = (Self.rounded(x), Self.rounded(y))
        if let dong = Self.map.dong(x: x, y: y) { return (x, y, dong, nil) }
      }
    }
  }

  /// A point around `x`/`y` inside a 법정동, spread wider while none is found.
  private mutating func settle(around x: Double, _ y: Double, metres: Double) -> (
    x: Double, y: Double, dong: Int
  ) {
    var spread = metres
    while spread < 100_000 {
      for _ in 0..<16 {
        let (px, py) = jitter(x, y, metres: spread)
        let (rx, ry) = (Self.rounded(px), Self.rounded(py))
        if let dong = Self.map.dong(x: rx, y: ry) { return (rx, ry, dong) }
      }
      spread *= 2
    }
    preconditionFailure("no 법정동 near \(x), \(y)")
  }

  /// Seven decimals, as Kakao gives coordinates (about a centimetre).
  private static func rounded(_ degrees: Double) -> Double {
    (degrees * 1e7).rounded() / 1e7
  }

  // MARK: - Choices

  private mutating func unit() -> Double {
    Double(random.next() >> 11) / Double(1 << 53)
  }

  /// A normal deviate (Box–Muller).
  private mutating func gaussian() -> Double {
    let u = max(unit(), 1e-12)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * unit())
  }

  /// A position around `x`/`y`, normally spread by `metres`.
  private mutating func jitter(_ x: Double, _ y: Double, metres: Double) -> (Double, Double) {
    let degrees = metres / 111_195
    return (x + gaussian() * degrees / 0.7924, y + gaussian() * degrees)
  }

  private mutating func pickCategory() -> PlaceCategory {
    var ticket = Int(random.next() % UInt64(Self.shareTotal))
    for (category, share) in DemoPlaces.shares {
      if ticket < share { return category }
      ticket -= share
    }
    return .restaurant
  }

  private mutating func pickDistrict() -> DemoSeoul.District {
    var ticket = Int(random.next() % UInt64(Self.districtWeight))
    for district in DemoSeoul.districts {
      if ticket < district.weight { return district }
      ticket -= district.weight
    }
    return DemoSeoul.districts[0]
  }

  private mutating func pickTemplate(_ category: PlaceCategory) -> DemoPlaceTemplate {
    let templates = Self.templates[Int(category.rawValue)]
    var ticket = Int(random.next() % UInt64(max(Self.templateWeights[Int(category.rawValue)], 1)))
    for template in templates {
      if ticket < template.weight { return template }
      ticket -= template.weight
    }
    return templates[0]
  }

  private mutating func pick(_ choices: [String]) -> String {
    choices.isEmpty ? "" : choices[Int(random.next() % UInt64(choices.count))]
  }

  /// A number as Kakao shows it, or none for the kinds of place that
  /// mostly have none there (private car parks, small parks, chargers).
  /// Seoul numbers (`02-555-1234`, `02-3452-7788`), some internet lines
  /// (`070-`); stations have their operator's number.
  private mutating func phone(
    _ category: PlaceCategory, categoryName: String, line: String, landmark: Bool
  ) -> String {
    if category == .subwayStation {
      switch line {
      case "9호선": return "02-2656-0009"
      case "신분당선": return "031-8018-7777"
      case "경의중앙선", "수인분당선": return "1544-7788"
      default: return "1577-1234"
      }
    }
    // Per cent without a number, and per cent with an internet line.
    let (missing, internet): (UInt64, UInt64) =
      switch category {
      case .parking: categoryName.hasSuffix("공영주차장") ? (45, 0) : (85, 5)
      case .attraction: landmark ? (0, 0) : (80, 0)
      case .gasStation: categoryName.contains("충전소") ? (80, 5) : (4, 0)
      case .hospital, .pharmacy, .bank, .school, .publicInstitution, .kindergarten: (2, 0)
      case .restaurant, .cafe: (10, 10)
      case .lodging, .academy, .realEstateAgency: (6, 12)
      default: (8, 4)
      }
    let roll = random.next() % 100
    if roll < missing { return "" }
    let last = 1_000 + random.next() % 9_000
    if roll < missing + internet { return "070-\(4_000 + random.next() % 6_000)-\(last)" }
    let middle = random.next() % 10 < 4 ? 200 + random.next() % 800 : 2_000 + random.next() % 8_000
    return "02-\(middle)-\(last)"
  }

  // MARK: - Names

  /// What a name's tokens refer to.
  private struct Context {
    let district: DemoSeoul.District
    let dong: String
    let stem: String
    let road: String
    let station: DemoSeoul.Station
  }

  private mutating func fill(_ parts: [DemoPlaceTemplate.Part], _ context: inout Context) -> String
  {
    var name = ""
    for part in parts {
      switch part {
      case .text(let text): name += text
      case .stem: name += context.stem
      case .dong: name += context.dong
      case .gu: name += context.district.name
      case .guStem: name += Self.stem(ofDistrict: context.district.name)
      case .road: name += context.road
      case .station: name += context.station.name
      case .line: name += context.station.line
      case .branch: name += branch(context)
      case .word: name += pick(DemoPlaceTemplate.words)
      case .trust: name += pick(DemoPlaceTemplate.trustWords)
      case .surname: name += pick(DemoPlaceTemplate.surnames)
      case .number: name += String(1 + random.next() % 9)
      case .pick(let choices): name += pick(choices)
      }
    }
    return name
  }

  /// A branch name as chains give them: `역삼`, `역삼중앙`, `강남역`, `테헤란로`, `강남역삼`.
  private mutating func branch(_ context: Context) -> String {
    switch random.next() % 20 {
    case 0...9: context.stem
    case 10...13: context.stem + pick(DemoPlaceTemplate.branchSuffixes)
    case 14...16: context.station.name + (context.station.name.hasSuffix("역") ? "" : "역")
    case 17...18: context.road
    default: Self.stem(ofDistrict: context.district.name) + context.stem
    }
  }

  private static func stem(ofDong dong: String) -> String {
    var stem = Substring(dong)
    if stem.hasSuffix("가") {
      stem = stem.dropLast()
      while let last = stem.last, last.isNumber { stem = stem.dropLast() }
    }
    if stem.hasSuffix("동"), stem.count > 2 { stem = stem.dropLast() }
    return String(stem)
  }

  private static func stem(ofDistrict name: String) -> String {
    name.count > 2 && name.hasSuffix("구") ? String(name.dropLast()) : name
  }

  // MARK: - Geography

  private func nearestStation(x: Double, y: Double) -> DemoSeoul.Station {
    var best = DemoSeoul.stations[0]
    var bestDistance = Double.infinity
    for station in DemoSeoul.stations {
      let dx = (station.x - x) * 0.7924
      let dy = station.y - y
      let distance = dx * dx + dy * dy
      if distance < bestDistance {
        bestDistance = distance
        best = station
      }
    }
    return best
  }

  /// A stable number for the grid cell of `size` degrees around a position.
  private static func cellHash(x: Double, y: Double, size: Double, salt: UInt64) -> Int {
    let column = UInt64(bitPattern: Int64((x / size).rounded(.down)))
    let row = UInt64(bitPattern: Int64((y / size).rounded(.down)))
    var hash = (column &* 0x9E37_79B9_7F4A_7C15) ^ (row &* 0xC2B2_AE3D_27D4_EB4F) ^ salt
    hash ^= hash >> 29
    hash &*= 0xBF58_476D_1CE4_E5B9
    hash ^= hash >> 32
    return Int(hash % (1 << 31))
  }
}
