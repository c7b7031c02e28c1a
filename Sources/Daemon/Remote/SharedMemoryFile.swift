#if canImport(Glibc)
  import Glibc
#endif

/// A file that lives in memory only, shared by every process that holds its
/// descriptor: a forwarder creates one for its session's
/// `WaitingRequestTable`, hands it to the shared daemon, and can still read
/// it after the daemon is gone.
///
/// Linux-only (memfd_create(2), which glibc declares only under
/// `_GNU_SOURCE`, so it is looked up once): a macOS port opens a fresh name
/// with shm_open, unlinks it at once and sets close-on-exec, here and nowhere else.
enum SharedMemoryFile {
  /// A new, empty file, closed on exec; nil when the system gives none.
  static func create(name: String) -> Int32? {
    guard let memfdCreate = MemfdCreate.shared.pointer else { return nil }
    let fd = name.withCString { memfdCreate($0, closeOnExec) }
    return fd >= 0 ? fd : nil
  }

  /// `MFD_CLOEXEC`.
  private static let closeOnExec: UInt32 = 1

  /// memfd_create(2), looked up once.
  private struct MemfdCreate: @unchecked Sendable {
    // `@unchecked Sendable`: a C function pointer, immutable once looked up.
    typealias Function = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    let pointer: Function?

    static let shared = MemfdCreate(
      pointer: dlsym(nil, "memfd_create").map { unsafeBitCast($0, to: Function.self) })
  }
}
