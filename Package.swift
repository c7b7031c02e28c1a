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
    // Loads libcurl with dlopen on first use, so the daemon's start does not pay for it.
    .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
    .target(
      name: "Services",
      dependencies: ["Protocol", "CCurlShim"],
      exclude: ["Quotes/Corpus"]
    ),
    .executableTarget(name: "Daemon", dependencies: ["Protocol", "Services"]),
    .executableTarget(name: "LoadGenerator", path: "Benchmarks/LoadGenerator"),
    .testTarget(name: "ProtocolTests", dependencies: ["Protocol"], exclude: ["JSONTestSuite"]),
    .testTarget(name: "ServicesTests", dependencies: ["Services"]),
    .testTarget(name: "DaemonTests", dependencies: ["Daemon", "Protocol", "Services"]),
  ]
)
