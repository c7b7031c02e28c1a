import Protocol
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The requests a forwarded session's client still waits on, kept by the
/// shared daemon in a file its forwarder shares (`SharedMemoryFile`): the
/// daemon writes the client's pipes itself, so when it dies only this table
/// tells the forwarder which requests to answer with -32020, in which
/// framing and language, and whether the stream stopped inside a frame.
///
/// The daemon records each request id as the request is read (`expect`,
/// which returns the entry's ticket), notes at which stream offset its
/// reply's frame ends when the reply is queued (`replyQueued`, given the
/// ticket back), and frees the entry once the bytes up to there were
/// written (`written`). The forwarder reads the table only after
/// the daemon is gone (`Snapshot.read`): no process writes it any more, and
/// each field is one aligned word, so a death between two stores leaves
/// every field whole. An entry waits while its reply has not been written
/// (`replyEnd` 0, or past `committed`), even if the daemon had not freed it yet.
///
/// Layout, in native byte order: a header of `headerBytes`, then slots of
/// `slotBytes`:
///
///     header: magic, committed, frameEnd, slots in use, unrecorded, framing,
///             locale length, locale (32 bytes)
///     slot:   order (0: free), replyEnd (0: not queued), id length, id as JSON text
final class WaitingRequestTable: Sendable {
  static let headerBytes = 256
  static let slotBytes = 128
  /// The longest id (as JSON text) a slot holds; longer ones are counted as unrecorded.
  static let maxIDBytes = slotBytes - 24
  /// The size the table starts with; it doubles when its slots are all taken.
  static let initialBytes = 64 << 10
  static let magic: UInt64 = 0x6361_7461_6C6F_6731  // "catalog1"

  private enum Header {
    static let magic = 0
    static let committed = 8
    static let frameEnd = 16
    static let slotsInUse = 24
    static let unrecorded = 32
    static let framing = 40
    static let localeLength = 48
    static let locale = 56
    static let localeCapacity = 32
  }

  private struct State: ~Copyable {
    /// Where the file is mapped, and how many bytes.
    var base: UnsafeMutableRawPointer
    var mappedBytes: Int
    /// Slots below this index have been used at least once.
    var slotsInUse = 0
    /// Freed slots, to use again before new ones.
    var free: [Int] = []
    /// Orders the entries: the oldest request is answered first.
    var nextOrder: UInt64 = 1
    /// An id's JSON text, kept to write the next one without an allocation.
    var text: [UInt8] = []
    /// Slots whose reply is queued, in stream order, with the offset where the reply ends.
    var queued: [(end: UInt64, slot: Int)] = []
    var queuedHead = 0
    var unrecorded: UInt64 = 0

    var capacity: Int {
      (mappedBytes - WaitingRequestTable.headerBytes) / WaitingRequestTable.slotBytes
    }

    func store(_ value: UInt64, at offset: Int) {
      base.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
    }

    func copy(_ bytes: [UInt8], to offset: Int) {
      bytes.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(start: base + offset, count: $0.count).copyMemory(from: $0)
      }
    }

    func slotOffset(_ slot: Int) -> Int {
      WaitingRequestTable.headerBytes + slot * WaitingRequestTable.slotBytes
    }
  }

  /// The shared file.
  private let fd: Int32
  private let state: Mutex<State>

  /// Takes over `fd` (a `SharedMemoryFile` a forwarder sent) and maps it;
  /// nil when it cannot be sized or mapped.
  init?(fd: Int32) {
    guard ftruncate(fd, off_t(Self.initialBytes)) == 0,
      let base = Self.map(fd, bytes: Self.initialBytes)
    else {
      close(fd)
      return nil
    }
    self.fd = fd
    base.storeBytes(of: Self.magic, toByteOffset: Header.magic, as: UInt64.self)
    state = Mutex(State(base: base, mappedBytes: Self.initialBytes))
  }

  deinit {
    state.withLock { _ = munmap($0.base, $0.mappedBytes) }
    close(fd)
  }

  private static func map(_ fd: Int32, bytes: Int, writable: Bool = true)
    -> UnsafeMutableRawPointer?
  {
    let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
    let base = mmap(nil, bytes, protection, MAP_SHARED, fd, 0)
    guard let base, base != MAP_FAILED else { return nil }
    return base
  }

  // MARK: - The daemon's side

  /// The client's framing, once known.
  func setFraming(_ framing: Framing) {
    state.withLock { $0.store(framing == .lsp ? 2 : 1, at: Header.framing) }
  }

  /// The language of the session's error messages.
  func setLocale(_ locale: MessageLocale) {
    let tag = Array(locale.rawValue.utf8.prefix(Header.localeCapacity))
    state.withLock { state in
      state.store(0, at: Header.localeLength)
      state.copy(tag, to: Header.locale)
      state.store(UInt64(tag.count), at: Header.localeLength)
    }
  }

  /// A request with this id was read: it waits until its reply is written.
  /// The ticket is the entry's (`untracked` when there was no room for it).
  @discardableResult
  func expect(_ id: RequestID) -> ReplyTicket {
    state.withLock { state in
      state.text.removeAll(keepingCapacity: true)
      JSONWriter.write(id.json, into: &state.text)
      guard state.text.count <= Self.maxIDBytes, let slot = takeSlot(&state) else {
        state.unrecorded += 1
        state.store(state.unrecorded, at: Header.unrecorded)
        return .untracked
      }
      let offset = state.slotOffset(slot)
      state.store(0, at: offset + 8)
      state.store(UInt64(state.text.count), at: offset + 16)
      state.copy(state.text, to: offset + 24)
      // Last: the slot counts only once its id is whole.
      state.store(state.nextOrder, at: offset)
      state.nextOrder += 1
      return ReplyTicket(slot: Int32(slot))
    }
  }

  /// The reply `ticket` stands for was queued; its frame ends at stream offset `end`.
  func replyQueued(_ ticket: ReplyTicket, endingAt end: UInt64) {
    guard ticket.slot >= 0 else { return }
    let slot = Int(ticket.slot)
    state.withLock { state in
      state.store(end, at: state.slotOffset(slot) + 8)
      state.queued.append((end, slot))
    }
  }

  /// The stream's bytes up to `offset` were written; `frameEnd` is where the
  /// frame `offset` falls in ends (`offset` itself between frames). Frees
  /// the entries whose replies were written.
  func written(upTo offset: UInt64, frameEnd: UInt64) {
    state.withLock { state in
      state.store(frameEnd, at: Header.frameEnd)
      state.store(offset, at: Header.committed)
      while state.queuedHead < state.queued.count, state.queued[state.queuedHead].end <= offset {
        let slot = state.queued[state.queuedHead].slot
        state.store(0, at: state.slotOffset(slot))
        state.free.append(slot)
        state.queuedHead += 1
      }
      if state.queuedHead > 64 && state.queuedHead * 2 > state.queued.count {
        state.queued.removeFirst(state.queuedHead)
        state.queuedHead = 0
      }
    }
  }

  /// A free slot, growing the file when all are taken; nil when it cannot grow.
  private func takeSlot(_ state: inout State) -> Int? {
    if let slot = state.free.popLast() { return slot }
    if state.slotsInUse == state.capacity {
      let bytes = state.mappedBytes * 2
      guard ftruncate(fd, off_t(bytes)) == 0, let base = Self.map(fd, bytes: bytes) else {
        return nil
      }
      _ = munmap(state.base, state.mappedBytes)
      state.base = base
      state.mappedBytes = bytes
    }
    state.slotsInUse += 1
    state.store(UInt64(state.slotsInUse), at: Header.slotsInUse)
    return state.slotsInUse - 1
  }

  // MARK: - The forwarder's side

  /// What a table held when its daemon died.
  struct Snapshot: Equatable {
    /// The client's framing, if the daemon had seen it.
    var framing: Framing?
    /// The session's language, if the daemon had set it.
    var locale: MessageLocale?
    /// The stream's bytes written, as far as the daemon knew.
    var committed: UInt64 = 0
    /// Where the frame the stream stopped in ends (`committed` when between frames).
    var frameEnd: UInt64 = 0
    /// The requests still waiting, the oldest first; a reused id as often as it waits.
    var waiting: [RequestID] = []
    /// Requests the table had no room for (or whose id was too long to hold).
    var unrecorded = 0

    /// Reads the table in `fd`; nil when it holds none (the daemon never set it up).
    static func read(_ fd: Int32) -> Snapshot? {
      var status = stat()
      guard fstat(fd, &status) == 0, Int(status.st_size) >= headerBytes,
        let base = map(fd, bytes: Int(status.st_size), writable: false)
      else { return nil }
      defer { _ = munmap(base, Int(status.st_size)) }
      func load(_ offset: Int) -> UInt64 { base.load(fromByteOffset: offset, as: UInt64.self) }
      guard load(Header.magic) == magic else { return nil }
      var snapshot = Snapshot()
      snapshot.committed = load(Header.committed)
      snapshot.frameEnd = max(load(Header.frameEnd), snapshot.committed)
      snapshot.unrecorded = Int(load(Header.unrecorded))
      snapshot.framing =
        switch load(Header.framing) {
        case 1: .ndjson
        case 2: .lsp
        default: nil
        }
      let localeLength = min(Int(load(Header.localeLength)), Header.localeCapacity)
      if localeLength > 0 {
        let tag = String(
          decoding: UnsafeRawBufferPointer(start: base + Header.locale, count: localeLength),
          as: UTF8.self)
        snapshot.locale = MessageLocale(identifier: tag)
      }
      let slots = min(Int(load(Header.slotsInUse)), (Int(status.st_size) - headerBytes) / slotBytes)
      var entries: [(order: UInt64, id: RequestID)] = []
      for slot in 0..<max(slots, 0) {
        let offset = headerBytes + slot * slotBytes
        let order = load(offset)
        let replyEnd = load(offset + 8)
        guard order != 0, replyEnd == 0 || replyEnd > snapshot.committed else { continue }
        let length = min(Int(load(offset + 16)), maxIDBytes)
        let text = UnsafeBufferPointer(
          start: (base + offset + 24).assumingMemoryBound(to: UInt8.self), count: length)
        guard let json = try? JSONParser.parse(text), let id = RequestID(json) else { continue }
        entries.append((order, id))
      }
      snapshot.waiting = entries.sorted { $0.order < $1.order }.map(\.id)
      return snapshot
    }
  }
}
