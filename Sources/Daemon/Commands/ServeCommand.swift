import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// `catalogd [options]`: serves JSON-RPC on stdin/stdout until `exit` or end of input.
enum ServeCommand {
  /// How long in-flight requests may run after end of input before they are cancelled.
  static let endOfInputGrace = 30.0
  /// How long queued output may take to drain before the process exits anyway.
  static let drainTimeout = 5.0

  static func run(_ configuration: Configuration) -> Never {
    let protocolFD = takeProtocolStdout()
    let tracer = Tracer.of(configuration)
    let outbox = Outbox(
      fd: protocolFD, framing: configuration.initialFraming,
      maxQueuedBytes: configuration.maxQueuedOutputBytes, tracer: tracer,
      onBrokenPipe: {
        Log.info("the client closed its end of stdout; exiting")
        exit(0)
      })
    startThread { outbox.runWriter() }

    let daemon = DaemonContext(
      configuration: configuration, services: ServiceHub(configuration: configuration))
    let connection = Connection(
      sink: outbox, daemon: daemon, methods: MethodRegistry.all,
      onExit: { status in
        Log.info("exit", ["status": String(status)])
        outbox.close()
        outbox.drain(timeout: drainTimeout)
        exit(status)
      })
    Log.info(
      "catalogd started",
      ["version": Version.current, "dataDir": configuration.dataDirectory, "pid": String(getpid())])

    MessageReader(
      fd: 0, connection: connection, outbox: outbox, tracer: tracer, configuration: configuration
    )
    .run()

    // End of input is a normal end: let running requests answer, then exit 0.
    connection.endAfterInput(grace: endOfInputGrace)
    outbox.close()
    outbox.drain(timeout: drainTimeout)
    Log.info("end of input; exiting")
    exit(0)
  }
}
