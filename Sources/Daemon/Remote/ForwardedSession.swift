import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// One client's session in the shared daemon, run on the client's own stdin
/// and stdout, which its forwarder handed over (`SessionHandoff`): the
/// session reads and writes them exactly as a daemon of the client's own
/// reads and writes its stdio, so a round trip costs what a direct one does.
///
/// The forwarder's connection stays open as the session's control line:
/// when the session ends, the daemon closes its copies of the client's pipes
/// and then writes one byte, the status a daemon of the client's own would
/// have exited with, which the forwarder exits with. When the forwarder goes
/// away, the session ends at once (`SessionEnd`).
enum ForwardedSession {
  /// Receives the handoff on `control`, serves the session until it ends,
  /// then reports its status and closes `control`.
  static func serve(control: Int32, peerProcess: Int32, daemon: DaemonContext) {
    defer { close(control) }
    guard let handoff = SessionHandoff.receive(from: control) else {
      Log.debug("a connection ended without handing a session over")
      return
    }
    let status = run(handoff, control: control, peerProcess: peerProcess, daemon: daemon)
    // The table's file and the trace file belong to the session's
    // `WaitingRequestTable` and `Tracer`, which close them.
    close(handoff.input)
    close(handoff.output)
    // After the pipes are closed, so that the client has seen their end when its forwarder exits.
    var byte = UInt8(truncatingIfNeeded: status)
    _ = send(control, &byte, 1, Int32(MSG_NOSIGNAL))
  }

  private static func run(
    _ handoff: SessionHandoff, control: Int32, peerProcess: Int32, daemon: DaemonContext
  ) -> Int32 {
    let configuration = daemon.configuration
    var settings = configuration
    settings.framing = handoff.framing
    let table = handoff.table.flatMap { fd in
      let table = WaitingRequestTable(fd: fd)
      if table == nil { Log.warn("cannot map the session's table of waiting requests") }
      return table
    }
    table?.setLocale(handoff.locale)
    if case .fixed(let framing) = handoff.framing { table?.setFraming(framing) }
    let end = SessionEnd(control: control)
    let tracer = handoff.trace.map { Tracer(fd: $0) }
    let outbox = Outbox(
      fd: handoff.output, framing: settings.initialFraming,
      maxQueuedBytes: configuration.maxQueuedOutputBytes, tracer: tracer, table: table, end: end,
      onBrokenPipe: {
        // As a daemon of the client's own exits 0 when its stdout is closed.
        Log.debug("the client closed its end of stdout; ending its session")
        end.request(status: 0)
      })
    startThread { outbox.runWriter() }
    let connection = Connection(
      sink: outbox, daemon: daemon, methods: MethodRegistry.all, peerProcess: peerProcess,
      locale: handoff.locale,
      onExit: { status in
        // `exit` ends this session, never the daemon: its replies go out first.
        Log.debug("session exit", ["status": String(status)])
        outbox.close()
        outbox.drain(timeout: ServeCommand.drainTimeout)
        end.request(status: status)
      })
    Log.info(
      "session started",
      ["session": String(connection.session.number), "peer.pid": String(peerProcess)])
    var reader = MessageReader(
      fd: handoff.input, connection: connection, outbox: outbox, tracer: tracer,
      configuration: settings)
    reader.end = end
    reader.run()
    if end.isRequested {
      // `exit`, a client gone or a forwarder gone: the process a daemon of
      // the client's own would be has ended; what still runs is cancelled.
      connection.endNow()
    } else {
      connection.endAfterInput(grace: ServeCommand.endOfInputGrace)
      outbox.close()
      outbox.drain(timeout: ServeCommand.drainTimeout)
      end.request(status: 0)
    }
    // The end's request woke a write waiting for room; nothing writes to the pipe after this.
    outbox.detach()
    Log.info("session ended", ["session": String(connection.session.number)])
    return end.status ?? 0
  }
}
