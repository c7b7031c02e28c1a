import XCTest

/// The error `body` throws, or a test failure (at the caller's line) when it returns.
func thrownError(
  _ body: () async throws -> some Any, file: StaticString = #filePath, line: UInt = #line
) async -> (any Error)? {
  do {
    let value = try await body()
    XCTFail("expected an error, got \(value)", file: file, line: line)
    return nil
  } catch {
    return error
  }
}
