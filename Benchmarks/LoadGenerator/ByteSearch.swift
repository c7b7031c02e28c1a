import Glibc

/// Where `needle` first occurs in `haystack` at or after `start`. Glibc's `memmem` is not
/// visible from Swift, so `memchr` finds candidates and `memcmp` confirms them. It looks for the
/// needle's second byte: for `"id":` that skips the quotes of every key and value before it.
func firstIndex(of needle: StaticString, in haystack: UnsafeRawBufferPointer, from start: Int = 0)
  -> Int?
{
  let length = needle.utf8CodeUnitCount
  guard let base = haystack.baseAddress, length > 0 else { return nil }
  let anchor = length > 1 ? 1 : 0
  let anchorByte = Int32(needle.utf8Start[anchor])
  var position = start + anchor  // Where the anchor byte of the next candidate may be.
  while haystack.count - position >= length - anchor {
    let span = haystack.count - position - (length - anchor) + 1
    guard let hit = memchr(base + position, anchorByte, span) else { return nil }
    let index = base.distance(to: UnsafeRawPointer(hit)) - anchor
    if memcmp(base + index, needle.utf8Start, length) == 0 { return index }
    position = index + anchor + 1
  }
  return nil
}

/// Whether `needle` occurs in `haystack` at `index`.
func occurs(_ needle: StaticString, in haystack: UnsafeRawBufferPointer, at index: Int) -> Bool {
  guard let base = haystack.baseAddress, haystack.count - index >= needle.utf8CodeUnitCount
  else { return false }
  return memcmp(base + index, needle.utf8Start, needle.utf8CodeUnitCount) == 0
}
