import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

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
  /// once, the same on every later start. Daemons starting together on a new
  /// data dir agree on one: each writes a candidate to a file of its own and
  /// `link(2)`s it into place, which only the first can do.
  func persistentClientId() throws(Failure) -> String {
    let file = path + "/client-id"
    if let stored = readClientId(file) { return stored }
    try create()
    let candidate = path + "/client-id.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
    let id = UUID().uuidString.lowercased()
    do {
      try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: candidate))
    } catch {
      throw Failure(description: "cannot write \(candidate): \(error)")
    }
    defer { unlink(candidate) }
    if link(candidate, file) == 0 { return id }
    guard errno == EEXIST else {
      throw Failure(description: "cannot create \(file): errno \(errno)")
    }
    if let stored = readClientId(file) { return stored }
    // The file holds no UUID (it was damaged, or a crash left it empty): replace it.
    guard rename(candidate, file) == 0 else {
      throw Failure(description: "cannot replace \(file): errno \(errno)")
    }
    Log.warn("replaced a damaged client-id file", ["path": file])
    return readClientId(file) ?? id
  }

  private func readClientId(_ file: String) -> String? {
    guard let data = FileManager.default.contents(atPath: file) else { return nil }
    let stored = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
    return UUID(uuidString: stored) != nil ? stored : nil
  }
}
