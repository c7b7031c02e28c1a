// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "catalogd",
  products: [
    .executable(name: "catalogd", targets: ["Daemon"]),
    .executable(name: "catalogd-bench", targets: ["LoadGenerator"]),
  ],
  targets: [
    // JSON, JSON-RPC messages, framing and wire errors. No I/O.
    .target(name: "Protocol"),
    // The system SQLite (Debian's libsqlite3-dev).
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // Non-variadic wrappers of SQLite's variadic calls (`sqlite3_config`).
    .target(name: "CSQLiteShim", dependencies: ["CSQLite"]),
    // The headers of the PostgreSQL client library (Debian's libpq-dev). The daemon
    // opens libpq with dlopen on first use (Services/Postgres/LibPQ.swift), so
    // only the tests link it: they check those declarations against the headers.
    .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // Loads libcurl with dlopen on first use, so the daemon's start does not pay for it.
    .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
    // The places index's hottest loop, eight points at a time where the processor can, and a prefetch.
    .target(name: "CPlaceCount"),
    .target(
      name: "Services",
      dependencies: ["Protocol", "CCurlShim", "CPlaceCount", "CSQLite", "CSQLiteShim"],
      exclude: [
        "Quotes/Corpus", "Products/Upstream/products.graphql",
        "Products/Upstream/operations.graphql", "Places/DemoSeoulDongs.LICENCE.md",
      ]
    ),
    .executableTarget(name: "Daemon", dependencies: ["Protocol", "Services"]),
    // The places figures compare the daemon with SQLite's R*Tree and a scan in-process.
    .executableTarget(
      name: "LoadGenerator", dependencies: ["Protocol", "Services", "CSQLite"],
      path: "Benchmarks/LoadGenerator"
    ),
    .testTarget(name: "ProtocolTests", dependencies: ["Protocol"], exclude: ["JSONTestSuite"]),
    .testTarget(name: "ServicesTests", dependencies: ["Services", "CLibPQ"]),
    .testTarget(name: "DaemonTests", dependencies: ["Daemon", "Protocol", "Services"]),
  ]
)
