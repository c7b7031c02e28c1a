import Glibc

/// A file or folder of the photos service could not be used.
public enum PhotoFolderError: Error, Sendable, Hashable {
  /// The photos folder could not be opened (missing, not a folder, no access).
  case cannotOpen(path: String, errno: Int32)
  /// A folder or file the service makes could not be made.
  case cannotCreate(path: String, errno: Int32)
  /// A file could not be written.
  case cannotWrite(path: String, errno: Int32)
  /// No thread could be started for the blocking work (`errno`).
  case noThread(errno: Int32)
  /// The folder could not be watched for changes (`FolderWatcher`).
  case cannotWatch(path: String, errno: Int32)
  /// This system has no way to watch a folder that `FolderWatcher` knows.
  case watchingUnsupported
}

extension PhotoFolderError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .cannotOpen(let path, let code): "cannot open \(path): \(Self.reason(code))"
    case .cannotCreate(let path, let code): "cannot create \(path): \(Self.reason(code))"
    case .cannotWrite(let path, let code): "cannot write \(path): \(Self.reason(code))"
    case .noThread(let code): "cannot start a thread: \(Self.reason(code))"
    case .cannotWatch(let path, let code): "cannot watch \(path): \(Self.reason(code))"
    case .watchingUnsupported: "watching a folder is not supported on this system"
    }
  }

  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
