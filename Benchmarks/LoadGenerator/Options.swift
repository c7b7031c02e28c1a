import Glibc

/// The command line, parsed.
struct Options {
  static let usage = """
    usage: catalogd-bench [--binary PATH] [--requests N] [--framing ndjson|lsp]
                          [--pingpong N] [--spawns N] [--timeout SECONDS] [--json]
           catalogd-bench --calibrate [--framing ndjson|lsp] [--json]
           catalogd-bench --products N [--postgres] [--json]
           catalogd-bench --feeds [--photo-files N] [--feed-products N] [--open-feeds N] [--json]
           catalogd-bench --places N [--json]
           catalogd-bench --shared [--places N] [--requests N] [--pingpong N] [--json]
           catalogd-bench --reads [--products N] [--places N] [--json]
           catalogd-bench --live-feeds [--feed-products N] [--open-feeds N] [--photo-files N]
                          [--postgres] [--json]

      --binary PATH      the daemon (default $CATALOGD_BIN, else .build/release/catalogd)
      --requests N       pipelined echo requests per framing; 0 skips (default 100000)
      --framing F        only this framing (default: throughput in both, the rest in ndjson)
      --pingpong N       timed round trips after 1000 of warm-up; 0 skips (default 20000)
      --spawns N         fresh daemons timed to their initialize reply; 0 skips (default 50)
      --timeout SECONDS  a daemon still running this long is killed (default 120)
      --json             print one JSON object instead of a line per figure
      --calibrate        measure the bench's own ceiling with no daemon (10^6 requests)
      --products N       only the products figures, on a catalog of N products (seeded once
                         into .build/bench-data/products-N-vV with `catalogd seed products N`)
      --postgres         with --products: the same figures on PostgreSQL beside them (a cluster
                         made and seeded once in .build/bench-data/postgres-N-vV), and creates
                         from 8 daemons at once on it
      --feeds            only the feeds and photos figures (indexing drops the OS caches when
                         run as root, else calls posix_fadvise on each file)
      --photo-files N    image files generated once into .build/bench-data/photos-N (100000)
      --feed-products N  the products feed's catalog, seeded like --products (100000)
      --open-feeds N     feeds held open at once in one daemon for the memory figure (1000)
      --live-feeds       only the live feed figures: one create reaching N open products feeds
                         of 200 items (N from --open-feeds), another daemon's change reaching a
                         feed (with --postgres on PostgreSQL too, --feed-products products), a
                         file added to the --photo-files folder reaching 10 photos feeds
      --places N         only the places figures, on N places (seeded once into
                         .build/bench-data/places-N-<generator's fingerprint> with
                         `catalogd import places FILE`)
      --shared           only the shared daemon's figures: 8 clients through forwarders
                         searching --places N (default 1000000) places, beside a daemon of
                         a client's own; what a forwarder adds to echo; call --remote=auto
      --reads            only the reads' round trips as multiples of the echo's, measured in
                         turn in one run on --products N (default 1000000) products and
                         --places N (default 1000000) places; again while another daemon
                         creates 1,000 products a second; pipelined gets of random ids
    """

  var binary = getenv("CATALOGD_BIN").map { String(cString: $0) } ?? ".build/release/catalogd"
  var requests = 100_000
  var framings = Framing.allCases
  var pingPongRoundTrips = 20_000
  var spawns = 50
  var timeoutSeconds = 120
  var json = false
  var calibrate = false
  var products = 0
  var postgres = false
  var feeds = false
  var liveFeeds = false
  var photoFiles = 100_000
  var feedProducts = 100_000
  var openFeeds = 1_000
  var places = 0
  var shared = false
  var reads = false
  var help = false

  init(_ arguments: some Sequence<String>) throws {
    var arguments = arguments.makeIterator()
    while let argument = arguments.next() {
      // Both `--name value` and `--name=value`.
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      let name = parts.first ?? argument
      func value() throws -> String {
        if parts.count == 2 { return parts[1] }
        guard let next = arguments.next() else { throw BenchError.usage("\(name) needs a value") }
        return next
      }
      func count() throws -> Int {
        let text = try value()
        guard let number = Int(text), number >= 0 else {
          throw BenchError.usage("\(name) needs a whole number, not \(text)")
        }
        return number
      }
      switch name {
      case "--binary": binary = try value()
      case "--requests": requests = try count()
      case "--pingpong": pingPongRoundTrips = try count()
      case "--spawns": spawns = try count()
      case "--timeout": timeoutSeconds = max(1, try count())
      case "--json": json = true
      case "--calibrate": calibrate = true
      case "--products": products = try count()
      case "--postgres": postgres = true
      case "--feeds": feeds = true
      case "--live-feeds": liveFeeds = true
      case "--photo-files": photoFiles = max(1, try count())
      case "--feed-products": feedProducts = max(1, try count())
      case "--open-feeds": openFeeds = max(1, try count())
      case "--places": places = try count()
      case "--shared": shared = true
      case "--reads": reads = true
      case "-h", "--help": help = true
      case "--framing":
        let text = try value()
        guard let framing = Framing(rawValue: text) else {
          throw BenchError.usage("--framing is ndjson or lsp, not \(text)")
        }
        framings = [framing]
      default: throw BenchError.usage("unknown option \(argument)")
      }
    }
    if postgres && products == 0 && !liveFeeds {
      throw BenchError.usage("--postgres needs --products N or --live-feeds")
    }
    if shared && places == 0 { places = 1_000_000 }
    if requests > 1_000_000_000 { throw BenchError.usage("--requests is at most 1000000000") }
  }
}
