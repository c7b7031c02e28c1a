/// `catalogd --help`.
enum HelpText {
  static var text: String {
    var lines = [
      "catalogd \(Version.current): products, photos, places and quotes over JSON-RPC 2.0 on stdin/stdout.",
      "",
      "Usage:",
      "  catalogd [OPTIONS]                      serve JSON-RPC on stdin/stdout (LSP or NDJSON framing)",
      "  catalogd --remote=auto|PATH [OPTIONS]   the same, served by a shared daemon (started when none runs)",
      "  catalogd serve --listen PATH [OPTIONS]  a shared daemon: one session per connection to the Unix socket",
      "  catalogd remote sessions [--remote=auto|PATH]",
      "                                          list the sessions of the shared daemon",
      "  catalogd call METHOD [PARAMS_JSON] [OPTIONS]",
      "                                          run one request in-process (or --remote) and print its result",
      "  catalogd import places FILE [OPTIONS]    add places from CSV or GeoJSON (progress on stderr)",
      "  catalogd seed products COUNT [OPTIONS]   add COUNT generated products (benchmarks)",
      "  catalogd openrpc                        print the OpenRPC contract (as rpc.discover returns it)",
      "  catalogd --help | --version",
      "",
      "Options (flags win over environment variables, which win over the config file):",
      "  --config FILE                           JSON config file (default $XDG_CONFIG_HOME/catalogd/config.json)",
    ]
    for setting in Setting.all {
      let left = "  \(setting.flag) \(setting.valueName)"
      let padded = left + String(repeating: " ", count: max(1, 42 - left.count))
      let sources = [
        setting.environment.map { "env \($0)" }, setting.key.map { "config \"\($0)\"" },
      ]
      .compactMap { $0 }.joined(separator: ", ")
      lines.append(padded + setting.help + (sources.isEmpty ? "" : " [\(sources)]"))
    }
    lines += [
      "",
      "Try it:",
      "  catalogd call quotes/random",
      #"  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize"}' '{"jsonrpc":"2.0","id":2,"method":"quotes/random"}' | catalogd"#,
    ]
    return lines.joined(separator: "\n") + "\n"
  }
}
