import Glibc
import Protocol

/// An import file mapped into memory read-only: the parsers walk its bytes
/// in place, so a file of a million rows costs page cache, not heap.
final class PlaceImportFile {
  /// The mapping; nil for an empty file.
  private let base: UnsafeMutableRawPointer?
  let count: Int

  /// Maps the file at `path`.
  /// - Throws: `InvalidArgument` (field `path`) when it cannot be opened,
  ///   is not a regular file, or cannot be mapped.
  init(path: String) throws(InvalidArgument) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Self.failure(.phrase("cannot be opened"), errno) }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw Self.failure(.phrase("cannot be read"), errno) }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw InvalidArgument(field: "path", reason: "is not a regular file")
    }
    count = Int(status.st_size)
    guard count > 0 else {
      base = nil
      return
    }
    let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0)
    guard let mapped, mapped != MAP_FAILED else {
      throw Self.failure(.phrase("cannot be mapped"), errno)
    }
    madvise(mapped, count, MADV_SEQUENTIAL)
    base = mapped
  }

  deinit {
    if let base { munmap(base, count) }
  }

  private static func failure(_ what: LocalizedText, _ code: Int32) -> InvalidArgument {
    InvalidArgument(field: "path", reason: "\(what): \(String(cString: strerror(code)))")
  }

  /// The bytes, valid while this object lives.
  var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count)
  }
}
