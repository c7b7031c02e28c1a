import Protocol
import Synchronization

/// Places from a Kakao Local-compatible server: `GET
/// {baseURL}/v2/local/search/category.json` with `Authorization: KakaoAK <key>`.
///
/// The search maps one to one: `category_group_code`, `x`, `y`, `radius` (or
/// `rect` as `"minX,minY,maxX,maxY"`, with x/y when given), `page`, `size`,
/// `sort`; the answer's string coordinates and distances become numbers and
/// its `meta` is passed on as is (`is_end` included). Kakao has no lookup by
/// id, so `get` answers from the places that recent searches returned.
/// Imports go to the embedded store only (`catalogd import places`).
public final class RemotePlaceBackend: PlaceBackend {
  public var kind: String { "remote" }

  static let service = "places"
  static let path = "/v2/local/search/category.json"
  /// How many places of recent searches `get` remembers.
  static let rememberedPlaces = 10_000

  /// The base URL without a trailing slash.
  private let baseURL: String
  /// Sent as `Authorization: KakaoAK <key>`; never logged. Empty: no header.
  private let apiKey: String
  /// Limit on each request, connecting included.
  private let timeout: Duration
  private let client: HTTPClient
  /// Places seen in search results, by id, and their ids oldest first.
  private let seen = Mutex<(places: [String: Place], order: [String])>(([:], []))

  public init(
    baseURL: String, apiKey: String, timeout: Duration = .seconds(10),
    client: HTTPClient = HTTPClient()
  ) {
    var baseURL = baseURL
    while baseURL.hasSuffix("/") { baseURL.removeLast() }
    self.baseURL = baseURL
    self.apiKey = apiKey
    self.timeout = timeout
    self.client = client
  }

  public func search(_ search: PlaceSearch) async throws -> PlaceSearchResult {
    var query = URLQuery()
    query.append("category_group_code", search.category.code)
    if let origin = search.origin {
      query.append("x", Self.decimal(origin.x))
      query.append("y", Self.decimal(origin.y))
    }
    switch search.area {
    case .circle(_, let radius):
      query.append("radius", radius)
    case .rect(let rect):
      query.append(
        "rect",
        [rect.minX, rect.minY, rect.maxX, rect.maxY].map(Self.decimal).joined(separator: ","))
    }
    query.append("page", search.page)
    query.append("size", search.size)
    query.append("sort", search.sort.rawValue)
    var headers = [HTTPRequest.Header("Accept", "application/json")]
    if !apiKey.isEmpty { headers.append(.init("Authorization", "KakaoAK \(apiKey)")) }
    let request = HTTPRequest(
      url: baseURL + Self.path + query.text, headers: headers, timeout: timeout,
      connectTimeout: min(timeout, .seconds(5)))
    let response = try await client.send(request, for: Self.service)
    let body = response.json
    guard response.isSuccess else {
      // Auth (401, 403), quota (429) and the rest: the upstream's own words.
      throw UpstreamFailure.errorStatus(
        service: Self.service, status: response.status,
        message: KakaoLocalFormat.errorMessage(try? body.get()))
    }
    let result: PlaceSearchResult
    do {
      result = try KakaoLocalFormat.result(body.get(), searched: search.category)
    } catch let error as KakaoLocalFormat.Malformed {
      throw malformed(response.status, error.reason)
    } catch {
      throw malformed(response.status, "the body is not JSON (\(error))")
    }
    remember(result.items)
    return result
  }

  public func get(id: String) async throws -> Place {
    guard var place = seen.withLock({ $0.places[id] }) else {
      throw NotFound(resource: "place", id: id)
    }
    place.distance = nil
    return place
  }

  public func importPlaces(
    path: String, progress: @escaping @Sendable (PlaceImportProgress) -> Void
  ) async throws -> PlaceImportResult {
    throw InvalidArgument(
      field: "path",
      reason: "cannot be imported while places come from a remote server")
  }

  private func remember(_ places: [Place]) {
    seen.withLock { seen in
      for place in places {
        if seen.places.updateValue(place, forKey: place.id) == nil {
          seen.order.append(place.id)
        }
      }
      let excess = seen.order.count - Self.rememberedPlaces
      if excess > 0 {
        for id in seen.order.prefix(excess) { seen.places[id] = nil }
        seen.order.removeFirst(excess)
      }
    }
  }

  private func malformed(_ status: Int, _ reason: String) -> UpstreamFailure {
    .badResponse(service: Self.service, status: status, message: "malformed response: \(reason)")
  }

  /// A coordinate as Kakao writes it: plain decimal, no exponent.
  static func decimal(_ value: Double) -> String {
    let text = "\(value)"
    guard text.contains("e") || text.contains("E") else { return text }
    // Tiny values (1e-05): fixed notation with enough digits for a metre.
    let scaled = (value * 1e7).rounded()
    let sign = scaled < 0 ? "-" : ""
    let magnitude = Int(scaled.magnitude)
    let fraction = String(magnitude % 10_000_000)
    return
      "\(sign)\(magnitude / 10_000_000).\(String(repeating: "0", count: 7 - fraction.count))\(fraction)"
  }
}
