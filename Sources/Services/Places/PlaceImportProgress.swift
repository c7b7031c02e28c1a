/// How far an import got, reported as it reads.
public struct PlaceImportProgress: Sendable, Hashable {
  /// Bytes of the file read so far.
  public var bytesRead: Int
  public var totalBytes: Int
  /// Rows read so far, imported or rejected.
  public var rows: Int

  public init(bytesRead: Int, totalBytes: Int, rows: Int) {
    self.bytesRead = bytesRead
    self.totalBytes = totalBytes
    self.rows = rows
  }

  /// 0…100.
  public var percentage: Int {
    totalBytes > 0 ? min(100, bytesRead * 100 / totalBytes) : 100
  }
}
