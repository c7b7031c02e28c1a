import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

// A client that goes away must end the daemon cleanly, not kill it mid-write.
signal(SIGPIPE, SIG_IGN)

/// Splits argv into flags (`--name value` or `--name=value`) and positionals.
func parseArguments(_ arguments: ArraySlice<String>) throws(ConfigurationError) -> (
  flags: [String: String], positionals: [String]
) {
  var flags: [String: String] = [:]
  var positionals: [String] = []
  var index = arguments.startIndex
  let known = Set(Setting.all.map(\.flag) + ["--config"])
  while index < arguments.endIndex {
    let argument = arguments[index]
    index += 1
    guard argument.hasPrefix("--"), argument.count > 2 else {
      positionals.append(argument)
      continue
    }
    let (name, inlineValue): (String, String?) =
      if let equals = argument.firstIndex(of: "=") {
        (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
      } else {
        (argument, nil)
      }
    guard known.contains(name) else {
      throw ConfigurationError(description: "unknown option \(name) (see catalogd --help)")
    }
    if let inlineValue {
      flags[name] = inlineValue
    } else {
      guard index < arguments.endIndex else {
        throw ConfigurationError(description: "\(name) needs a value")
      }
      flags[name] = arguments[index]
      index += 1
    }
  }
  return (flags, positionals)
}

func fail(_ message: String) -> Never {
  printLine("catalogd: \(message)")
  exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  Array(HelpText.text.utf8).withUnsafeBytes { _ = writeAll(1, $0) }
  exit(0)
}
if arguments.contains("--version") || arguments.contains("-V") {
  Array("catalogd \(Version.current)\n".utf8).withUnsafeBytes { _ = writeAll(1, $0) }
  exit(0)
}

do {
  let (flags, positionals) = try parseArguments(arguments)
  let configuration = try Configuration.resolve(
    flags: flags, environment: ProcessInfo.processInfo.environment)
  Log.level = configuration.logLevel
  switch positionals.first {
  case nil where configuration.remote != nil:
    ForwardCommand.run(configuration, arguments: Array(arguments))
  case nil:
    ServeCommand.run(configuration)
  case "serve":
    guard positionals.count == 1 else { fail("usage: catalogd serve [--listen PATH]") }
    if let path = configuration.listenPath {
      SharedDaemonCommand.run(configuration, socketPath: path)
    }
    ServeCommand.run(configuration)
  case "call":
    guard positionals.count == 2 || positionals.count == 3 else {
      fail("usage: catalogd call METHOD [PARAMS_JSON]")
    }
    exit(
      CallCommand.run(
        configuration, method: positionals[1],
        paramsText: positionals.count == 3 ? positionals[2] : nil))
  case "remote":
    guard positionals.count == 2, positionals[1] == "sessions" else {
      fail("usage: catalogd remote sessions [--remote=auto|PATH]")
    }
    exit(RemoteSessionsCommand.run(configuration))
  case "openrpc":
    Array(OpenRPCDocument.text.utf8).withUnsafeBytes { _ = writeAll(1, $0) }
    exit(0)
  case "import":
    let arguments = Array(positionals.dropFirst())
    exit(runBlocking { await PlacesImportCommand.run(configuration, arguments: arguments) })
  case "seed":
    let arguments = Array(positionals.dropFirst())
    exit(runBlocking { await SeedCommand.run(configuration, arguments: arguments) })
  case let command?:
    fail("unknown command \(command) (see catalogd --help)")
  }
} catch {
  fail(error.description)
}
