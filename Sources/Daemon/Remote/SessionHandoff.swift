import Protocol

#if canImport(Glibc)
  import Glibc
#endif

/// What a forwarder sends the shared daemon as soon as it is connected and
/// has checked the daemon's uid: its client's stdin and stdout, passed with
/// `SCM_RIGHTS`, the session's `WaitingRequestTable` file and the trace file
/// if any, and what the session takes from the forwarder (its framing
/// setting and its language). The daemon then runs the session on the
/// client's own pipes, as it runs its own stdio: no process copies the
/// messages in between. The socket stays open as the session's control line.
///
/// On the wire: one line of JSON, `{"framing":…,"locale":…,"fds":[roles]}`,
/// its first byte carrying the descriptors in the order of `fds`.
struct SessionHandoff {
  /// The client's messages (the forwarder's stdin).
  var input: Int32
  /// Where the client reads replies (the forwarder's protocol stdout).
  var output: Int32
  /// The session's `WaitingRequestTable` file, when the forwarder made one.
  var table: Int32?
  /// The `--trace` file, opened by the forwarder.
  var trace: Int32?
  /// The forwarder's `--framing`.
  var framing: FramingMode
  /// The language of error messages until `initialize` names one: the forwarder's.
  var locale: MessageLocale

  static let maxDescriptors = 4
  static let maxHeaderBytes = 4096

  /// Sends the handoff; false (errno set) when the socket refuses it.
  func send(over socket: Int32) -> Bool {
    var roles: [JSON] = ["input", "output"]
    var fds = [input, output]
    if let table {
      roles.append("table")
      fds.append(table)
    }
    if let trace {
      roles.append("trace")
      fds.append(trace)
    }
    let framingName: String =
      switch framing {
      case .auto: "auto"
      case .fixed(let framing): framing.rawValue
      }
    let header: JSON = [
      "framing": JSON(framingName), "locale": JSON(locale.rawValue), "fds": .array(roles),
    ]
    var bytes = header.serialized()
    bytes.append(UInt8(ascii: "\n"))
    let control = ControlBuffer(descriptors: fds.count)
    defer { control.deallocate() }
    control.store(fds)
    return bytes.withUnsafeMutableBytes { bytes in
      var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
      var message = msghdr()
      message.msg_iovlen = 1
      message.msg_control = control.base
      message.msg_controllen = control.bytes
      while true {
        let sent = withUnsafeMutablePointer(to: &vector) { vector in
          message.msg_iov = vector
          return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 && errno == EINTR { continue }
        guard sent >= 0 else { return false }
        // The descriptors went with the first byte; the rest, if any, follows as is.
        return sent == bytes.count
          || writeAll(socket, UnsafeRawBufferPointer(rebasing: bytes[sent...]))
      }
    }
  }

  /// Reads a handoff from a forwarder's connection; nil (closing whatever
  /// descriptors came) when the connection ends first or sends something else.
  static func receive(from socket: Int32) -> SessionHandoff? {
    var header: [UInt8] = []
    var fds: [Int32] = []
    let control = ControlBuffer(descriptors: maxDescriptors)
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    defer {
      control.deallocate()
      chunk.deallocate()
    }
    var handoff: SessionHandoff?
    defer {
      if handoff == nil { for fd in fds { close(fd) } }
    }
    while !header.contains(UInt8(ascii: "\n")) {
      guard header.count < maxHeaderBytes else { return nil }
      var vector = iovec(iov_base: chunk.baseAddress, iov_len: chunk.count)
      var message = msghdr()
      message.msg_iovlen = 1
      message.msg_control = control.base
      message.msg_controllen = control.bytes
      let count = withUnsafeMutablePointer(to: &vector) { vector in
        message.msg_iov = vector
        return recvmsg(socket, &message, CloseOnExecSocket.receiveFlags)
      }
      if count < 0 && errno == EINTR { continue }
      fds += control.descriptors(length: message.msg_controllen)
      guard count > 0, message.msg_flags & Int32(MSG_CTRUNC) == 0 else { return nil }
      header += UnsafeRawBufferPointer(rebasing: chunk[0..<count])
    }
    guard let json = try? JSONParser.parse(header),
      let roles = json["fds"]?.arrayValue?.compactMap(\.stringValue), roles.count == fds.count,
      let framing = json["framing"]?.stringValue.flatMap(FramingMode.init),
      let locale = json["locale"]?.stringValue.flatMap(MessageLocale.init(identifier:)),
      let input = roles.firstIndex(of: "input").map({ fds[$0] }),
      let output = roles.firstIndex(of: "output").map({ fds[$0] })
    else { return nil }
    let table = roles.firstIndex(of: "table")
    let trace = roles.firstIndex(of: "trace")
    handoff = SessionHandoff(
      input: input, output: output, table: table.map { fds[$0] }, trace: trace.map { fds[$0] },
      framing: framing, locale: locale)
    // A descriptor under a role named twice, or under none, is not kept open.
    let kept = Set([roles.firstIndex(of: "input"), roles.firstIndex(of: "output"), table, trace])
    for (index, fd) in fds.enumerated() where !kept.contains(index) { close(fd) }
    return handoff
  }
}

/// Room for one `SCM_RIGHTS` control message, laid out as the CMSG macros
/// (which Swift cannot call) would: a `cmsghdr`, then the descriptors, each
/// part aligned to a word.
private struct ControlBuffer {
  let base: UnsafeMutableRawPointer
  let bytes: Int

  private static let word = MemoryLayout<Int>.size
  private static func aligned(_ count: Int) -> Int { (count + word - 1) & ~(word - 1) }
  private static let headerBytes = aligned(MemoryLayout<cmsghdr>.size)

  init(descriptors: Int) {
    bytes = Self.headerBytes + Self.aligned(descriptors * MemoryLayout<Int32>.size)
    base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.word)
    base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
  }

  func deallocate() { base.deallocate() }

  func store(_ fds: [Int32]) {
    var header = cmsghdr()
    header.cmsg_len = MemoryLayout<cmsghdr>.size + fds.count * MemoryLayout<Int32>.size
    header.cmsg_level = SOL_SOCKET
    header.cmsg_type = Int32(SCM_RIGHTS)
    base.storeBytes(of: header, as: cmsghdr.self)
    for (index, fd) in fds.enumerated() {
      base.storeBytes(
        of: fd, toByteOffset: Self.headerBytes + index * MemoryLayout<Int32>.size, as: Int32.self)
    }
  }

  /// The descriptors the `length` bytes received hold.
  func descriptors(length: Int) -> [Int32] {
    var fds: [Int32] = []
    var offset = 0
    while offset + MemoryLayout<cmsghdr>.size <= length {
      let header = (base + offset).loadUnaligned(as: cmsghdr.self)
      guard header.cmsg_len >= MemoryLayout<cmsghdr>.size, offset + header.cmsg_len <= length
      else { break }
      if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
        let count = (header.cmsg_len - Self.headerBytes) / MemoryLayout<Int32>.size
        for index in 0..<count {
          fds.append(
            (base + offset).loadUnaligned(
              fromByteOffset: Self.headerBytes + index * MemoryLayout<Int32>.size, as: Int32.self))
        }
      }
      offset += Self.aligned(header.cmsg_len)
    }
    return fds
  }
}
