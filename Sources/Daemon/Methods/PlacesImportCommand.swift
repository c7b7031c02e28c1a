import Protocol
import Services

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd import places FILE`: imports a CSV or GeoJSON file into the
/// embedded places store of the data dir (whatever backend the daemon would
/// use), with a progress bar on stderr. The result (`{imported, rejected,
/// rejectedCount}`) goes to stdout as JSON; exit 0 when the file was read,
/// 1 when it could not be, 2 for bad usage.
enum PlacesImportCommand {
  static func run(_ configuration: Configuration, arguments: [String]) async -> Int32 {
    guard arguments.count == 2, arguments[0] == "places" else {
      printLine("usage: catalogd import places FILE", to: 2)
      return 2
    }
    let store = PlaceStore(path: configuration.dataDirectory + "/places.sqlite")
    let bar = ProgressBar(isTerminal: isatty(2) != 0)
    let started = monotonicSeconds()
    let result: PlaceImportResult
    do {
      result = try await PlacesService(backend: store).importPlaces(path: arguments[1]) { done in
        bar.show(done)
      }
    } catch let error as InvalidArgument {
      bar.finish()
      printLine("catalogd: \(arguments[1]) \(error.reason)", to: 2)
      return 1
    } catch {
      bar.finish()
      printLine("catalogd: \(error)", to: 2)
      return 1
    }
    bar.finish()
    let seconds = monotonicSeconds() - started
    printLine(
      "imported \(result.imported) places, rejected \(result.rejectedCount), in \(Int(seconds * 1000)) ms",
      to: 2)
    printLine(String(decoding: result.json.serialized(), as: UTF8.self), to: 1)
    return 0
  }

  /// `[##########----------]  50%  500000 rows` redrawn in place on a
  /// terminal; on a pipe, a line at every tenth.
  private final class ProgressBar: Sendable {
    let isTerminal: Bool

    init(isTerminal: Bool) {
      self.isTerminal = isTerminal
    }

    func show(_ progress: PlaceImportProgress) {
      let percentage = progress.percentage
      let filled = percentage / 5
      let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
      let percent = String(percentage)
      let text =
        "[\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%  \(progress.rows) rows"
      if isTerminal {
        PlacesImportCommand.printLine("\r" + text, to: 2, newline: false)
      } else if progress.rows % 100_000 == 0 {
        PlacesImportCommand.printLine(text, to: 2)
      }
    }

    func finish() {
      if isTerminal { PlacesImportCommand.printLine("\r\u{1B}[K", to: 2, newline: false) }
    }
  }

  fileprivate static func printLine(_ text: String, to fd: Int32, newline: Bool = true) {
    Array((text + (newline ? "\n" : "")).utf8).withUnsafeBytes { _ = writeAll(fd, $0) }
  }
}
