/// A list that inserts and removes at either end without moving the other
/// elements, and elsewhere by moving the shorter side.
///
/// A feed sorted newest first takes each new item at its front: with a
/// plain array every item would move, in every open feed of the query.
struct RingBuffer<Element>: RandomAccessCollection {
  /// The elements from `head` on, wrapping around; its size is zero or a power of two.
  private var storage: [Element?] = []
  /// Where element 0 is in `storage`.
  private var head = 0
  private(set) var count = 0

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(position: Int) -> Element {
    precondition(position >= 0 && position < count, "RingBuffer index out of range")
    guard let element = storage[slot(position)] else { preconditionFailure("empty slot") }
    return element
  }

  /// What `project` reads of the element at `position`, without copying the
  /// element (its other fields are neither retained nor released).
  func read<Value>(_ position: Int, _ project: (borrowing Element) -> Value) -> Value {
    precondition(position >= 0 && position < count, "RingBuffer index out of range")
    return storage.withUnsafeBufferPointer { slots in
      switch slots[slot(position)] {
      case .some(let element): project(element)
      case .none: preconditionFailure("empty slot")
      }
    }
  }

  mutating func append(_ element: Element) {
    reserve(count + 1)
    storage[slot(count)] = element
    count += 1
  }

  mutating func append(contentsOf elements: some Sequence<Element>) {
    reserve(count + elements.underestimatedCount)
    for element in elements { append(element) }
  }

  /// Inserts `element` at `position`, moving the elements before it one
  /// back or those after it one on, whichever are fewer.
  mutating func insert(_ element: Element, at position: Int) {
    precondition(position >= 0 && position <= count, "RingBuffer index out of range")
    reserve(count + 1)
    let mask = storage.count - 1
    if position < count / 2 {
      head = (head + mask) & mask
      storage.withUnsafeMutableBufferPointer { slots in
        for index in 0..<position { slots.swapAt((head + index) & mask, (head + index + 1) & mask) }
      }
    } else {
      storage.withUnsafeMutableBufferPointer { slots in
        for index in stride(from: count, to: position, by: -1) {
          slots.swapAt((head + index) & mask, (head + index - 1) & mask)
        }
      }
    }
    storage[slot(position)] = element
    count += 1
  }

  /// Removes the element at `position`, closing the gap from the shorter side.
  @discardableResult
  mutating func remove(at position: Int) -> Element {
    let element = self[position]
    storage[slot(position)] = nil
    let mask = storage.count - 1
    if position < count / 2 {
      storage.withUnsafeMutableBufferPointer { slots in
        for index in stride(from: position, to: 0, by: -1) {
          slots.swapAt((head + index) & mask, (head + index - 1) & mask)
        }
      }
      head = (head + 1) & mask
    } else {
      storage.withUnsafeMutableBufferPointer { slots in
        for index in position..<(count - 1) {
          slots.swapAt((head + index) & mask, (head + index + 1) & mask)
        }
      }
    }
    count -= 1
    return element
  }

  mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "RingBuffer cannot remove more elements than it has")
    for index in (count - k)..<count { storage[slot(index)] = nil }
    count -= k
  }

  private func slot(_ position: Int) -> Int { (head + position) & (storage.count - 1) }

  /// Makes room for `capacity` elements, laying them out from slot 0 when it grows.
  private mutating func reserve(_ capacity: Int) {
    guard capacity > storage.count else { return }
    var size = Swift.max(16, storage.count)
    while size < capacity { size *= 2 }
    var grown = [Element?](repeating: nil, count: size)
    for index in 0..<count {
      let from = slot(index)
      swap(&grown[index], &storage[from])
    }
    storage = grown
    head = 0
  }
}
