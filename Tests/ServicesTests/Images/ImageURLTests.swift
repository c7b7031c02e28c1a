import XCTest

@testable import Services

/// `ImageURL`: the schemes `images/get` takes, the host errors name, the path of a file.
final class ImageURLTests: XCTestCase {
  func testHTTPURLsGiveTheirHostAndOrigin() throws {
    let url = try XCTUnwrap(ImageURL("HTTPS://user:pw@Images.Example.com:8443/a/b.jpg?w=3#x"))
    XCTAssertEqual(url.scheme, .https)
    XCTAssertEqual(url.host, "images.example.com")
    XCTAssertEqual(url.origin, "https://images.example.com:8443")
    XCTAssertNil(url.path)
    XCTAssertEqual(ImageURL("http://[::1]:8080/a.png")?.host, "::1")
    XCTAssertEqual(ImageURL("http://127.0.0.1?x")?.host, "127.0.0.1")
  }

  func testFileURLsGiveTheirDecodedPath() {
    XCTAssertEqual(ImageURL("file:///tmp/a%20b/%EC%82%AC.png")?.path, "/tmp/a b/사.png")
    XCTAssertEqual(ImageURL("file://localhost/tmp/a.png")?.path, "/tmp/a.png")
    XCTAssertEqual(ImageURL("file:/tmp/a.png")?.path, "/tmp/a.png")
    XCTAssertEqual(ImageURL("file:///tmp/a.png")?.host, "")
  }

  func testOthersAreNoImageURLs() {
    for text in [
      "", "a.png", "/tmp/a.png", "ftp://x/a.png", "data:image/png;base64,AAAA", "http:/x",
      "http://", "https://:80/a", "file://other/tmp/a.png", "file:///tmp/%00.png",
      "file:///tmp/%zz.png", "file:///tmp/%FF.png", "file:relative.png",
    ] {
      XCTAssertNil(ImageURL(text), text)
    }
  }
}
