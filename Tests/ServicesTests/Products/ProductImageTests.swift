import FoundationEssentials
import Protocol
import XCTest

@testable import Services

/// Products' `imageUrl`: its rules, the embedded catalog storing it, the
/// migration that gives the demo products their pictures, and those pictures.
final class ProductImageTests: XCTestCase {
  var folder = ""

  override func setUp() {
    folder = FileManager.default.temporaryDirectory.path + "/product-image-tests-\(UUID())"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: folder)
  }

  func testImageURLsOfTheThreeSchemesAreAccepted() throws {
    for url in [
      "https://cdn.example.com/p/1.jpg", "http://127.0.0.1:8080/a.png?size=2#x",
      "HTTPS://EXAMPLE.COM/A.PNG", "http://[::1]:9000/x.webp", "file:///var/images/milk.png",
      "file://localhost/tmp/a%20b.png",
    ] {
      XCTAssertEqual(try ProductValidation.imageURL(url), url)
    }
  }

  func testBadImageURLsAreRefusedWithTheReason() {
    let cases: [(String, String)] = [
      ("ftp://example.com/a.png", "must be an http, https or file URL"),
      ("javascript:alert(1)", "must be an http, https or file URL"),
      ("milk.png", "must be an http, https or file URL"),
      ("https:example.com/a.png", "must be of the form http(s)://host/path"),
      ("http:///a.png", "has no host"),
      ("https://user:secret@example.com/a.png", "must not carry a user name or password"),
      ("http://example.com:99999/a.png", "has an invalid port"),
      ("http://example.com:/a.png", "has an invalid port"),
      ("https://example.com/a b.png", "must not contain spaces or control characters"),
      ("file:relative/a.png", "must be a local absolute file URL"),
      ("file://server/share/a.png", "must be a local absolute file URL"),
      ("https://example.com/" + String(repeating: "a", count: 2_048), "longer than 2048 bytes"),
    ]
    for (url, reason) in cases {
      XCTAssertThrowsError(try ProductValidation.imageURL(url), url) { error in
        let failure = error as? InvalidArgument
        XCTAssertEqual(failure?.field, "imageUrl", url)
        XCTAssertTrue(
          failure.map { "\($0.reason)".contains(reason) } ?? false,
          "\(url): \(String(describing: failure))")
      }
    }
  }

  func testTheEmbeddedCatalogStoresChangesAndClearsAnImage() async throws {
    let catalog = SQLiteProductBackend(path: folder + "/catalog.sqlite", origin: "test")
    let created = try await catalog.create(
      ProductDraft(nameKo: "사과", price: 1_000, imageUrl: "https://cdn.example.com/apple.jpg"))
    XCTAssertEqual(created.imageUrl, "https://cdn.example.com/apple.jpg")
    XCTAssertEqual(created.json["imageUrl"], JSON("https://cdn.example.com/apple.jpg"))
    let fetched = try await catalog.get(id: created.id)
    XCTAssertEqual(fetched.imageUrl, created.imageUrl)
    let renamed = try await catalog.update(
      id: created.id, ProductPatch(nameKo: "풋사과"), expectedVersion: nil)
    XCTAssertEqual(renamed.imageUrl, created.imageUrl, "a patch without imageUrl keeps it")
    let moved = try await catalog.update(
      id: created.id, ProductPatch(imageUrl: .some("file:///srv/apple.png")), expectedVersion: nil)
    XCTAssertEqual(moved.imageUrl, "file:///srv/apple.png")
    let cleared = try await catalog.update(
      id: created.id, ProductPatch(imageUrl: .some(nil)), expectedVersion: nil)
    XCTAssertNil(cleared.imageUrl)
    XCTAssertEqual(cleared.json["imageUrl"], .null)
  }

  /// A catalog made before images (schema version 3) gets the column, and its
  /// demo products still of their demo names get their pictures; the
  /// others keep none.
  func testAnOlderCatalogGivesOnlyItsDemoProductsTheirPictures() async throws {
    let path = folder + "/catalog.sqlite"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let images = DemoProductImages(dataDirectory: folder)
    let older = Array(SQLiteProductBackend.migrations.prefix(3))
    let connection = try SQLiteConnection(
      path: path, configure: { database in try database.migrate(older) })
    try await connection.write { database in
      try database.run("UPDATE products SET name_ko = '다른 이름' WHERE id = 2", [])
      try database.run(
        """
        INSERT INTO products (name_ko, price, created_at, updated_at, search_text)
        VALUES ('사용자 상품', 1, 0, 0, '사용자 상품')
        """, [])
    }
    await connection.close()

    let catalog = SQLiteProductBackend(path: path, origin: "test")
    let items = DemoCatalog.items()
    let first = try await catalog.get(id: "1")
    XCTAssertEqual(first.imageUrl, images.url(kind: items[0].kind))
    let renamed = try await catalog.get(id: "2")
    XCTAssertNil(renamed.imageUrl, "renamed: no longer the demo product")
    let users = try await catalog.get(id: "301")
    XCTAssertNil(users.imageUrl, "a user's product")
    let last = try await catalog.get(id: "300")
    XCTAssertEqual(last.imageUrl, images.url(kind: items[299].kind))
  }

  func testTheDemoPicturesAreValidPNGsOneForEachKind() throws {
    let images = DemoProductImages(dataDirectory: folder)
    try images.populate()
    XCTAssertEqual(Set(DemoCatalog.kinds).count, DemoCatalog.kinds.count, "kinds are unique")
    var pictures = Set<[UInt8]>()
    for (index, kind) in DemoCatalog.kinds.enumerated() {
      XCTAssertTrue(images.url(kind: index).hasSuffix("/product-images/\(kind).png"))
      let bytes = try XCTUnwrap(
        FileManager.default.contents(atPath: images.folder + "/\(kind).png"))
      let header = try ImageHeader.read(bytes: Array(bytes))
      XCTAssertEqual(header.format, .png, kind)
      XCTAssertEqual(header.width, DemoProductImages.side, kind)
      XCTAssertEqual(header.height, DemoProductImages.side, kind)
      pictures.insert(Array(bytes))
    }
    XCTAssertEqual(pictures.count, DemoCatalog.kinds.count, "every kind has a picture of its own")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: images.folder)
      .filter { $0.contains(".partial") }
    XCTAssertEqual(leftovers, [])
    // A second call finds them all and writes nothing.
    try images.populate()
  }

  func testAFolderWithSpacesAndHangulIsPercentEncodedInTheURL() {
    let images = DemoProductImages(dataDirectory: "/tmp/내 데이터")
    XCTAssertEqual(
      images.url(kind: 0),
      "file:///tmp/%EB%82%B4%20%EB%8D%B0%EC%9D%B4%ED%84%B0/product-images/\(DemoCatalog.kinds[0]).png"
    )
    XCTAssertNoThrow(try ProductValidation.imageURL(images.url(kind: 0)))
  }
}
