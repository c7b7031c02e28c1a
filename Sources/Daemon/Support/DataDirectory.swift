import FoundationEssentials

/// The daemon's own folder (`--data-dir`): created on first use.
struct DataDirectory {
  let path: String

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  func create() throws(Failure) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw Failure(description: "cannot create the data dir \(path): \(error)")
    }
  }

  /// The UUID this data dir gives a client that sends no `clientId`: made
  /// once, written atomically, the same on every later start.
  func persistentClientId() throws(Failure) -> String {
    let file = path + "/client-id"
    if let data = FileManager.default.contents(atPath: file) {
      let stored = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
      if UUID(uuidString: stored) != nil { return stored }
    }
    try create()
    let id = UUID().uuidString.lowercased()
    do {
      try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    } catch {
      throw Failure(description: "cannot write \(file): \(error)")
    }
    return id
  }
}
