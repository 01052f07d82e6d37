import Foundation

/// The journal's default estimate of a state's size, for its byte cap: the state's inline size
/// plus the heap storage of the arrays, strings, sets, dictionaries and `Data` it holds, found by
/// reflection (`Mirror`) through its stored properties, enum payloads and optionals.
///
/// - A collection counts its elements' stride times its count; elements that hold heap storage
///   themselves are sampled (at most `sampleCount` of them, evenly spaced) and their average is
///   counted for every element.
/// - A string counts its UTF-8 bytes when it is too long to be stored inline (over 15).
/// - Class instances are not followed: they are shared, not copied, by a checkpoint.
/// - A buffer (an array's, a set's, a dictionary's, `Data`'s) met twice is counted once, and one
///   the previous checkpoint holds is shared with it (copy on write) and not counted again (see
///   ``CheckpointList/append(estimating:)``).
/// - Elements are sampled: a change to the storage of an element outside the sample (an inner
///   array of an array of arrays) is not seen. Such states want their own `stateSize`.
///
/// It runs at checkpoints, never per action; a state without references (`_isPOD`) costs no
/// reflection at all. A walk of many values (a state of many strings and collections of structs:
/// 200 structs of two strings in `tracer/record-app-state`) is not repeated at every checkpoint: the size it
/// found is counted for up to 15 following ones (``CheckpointList/append(estimating:)``).
enum StateSizeEstimate {
  /// The most elements of one collection looked into.
  static let sampleCount = 8
  /// Followed at most this deep, so that a recursive structure ends.
  static let maxDepth = 16
  /// A checkpoint after a walk counts its size instead of walking, per this many values walked
  /// (casts and `Mirror`s, about a microsecond each)...
  static let visitsPerReuse = 4
  /// ...for at most this many checkpoints.
  static let maxReuses = 15

  /// The estimated bytes of `state`, counting every buffer.
  static func bytes<State>(of state: State) -> Int {
    var walk = Walk(shared: [])
    return walk.bytes(of: state)
  }

  /// One estimate.
  struct Walk {
    /// Buffers counted by the previous estimate: not counted again.
    let shared: Set<UInt>
    /// Buffers met by this one.
    var buffers: Set<UInt> = []
    /// The values looked into: what the walk cost.
    var visited = 0

    init(shared: Set<UInt>) {
      self.shared = shared
    }

    mutating func bytes<Value>(of value: Value) -> Int {
      if _isPOD(Value.self) { return MemoryLayout<Value>.size }
      return MemoryLayout<Value>.size + heapBytes(of: value, depth: 0)
    }

    /// The heap bytes `value` holds, beyond its inline size.
    mutating func heapBytes(of value: Any, depth: Int) -> Int {
      // A value without references (a number, a flag, a struct of them) holds nothing on the heap:
      // asked of its dynamic type, which skips a cast and a `Mirror` (most of a walk's cost).
      guard depth < StateSizeEstimate.maxDepth, !_openExistential(value, do: isPOD) else { return 0 }
      visited += 1
      if let value = value as? any HeapStored { return value.heapBytes(in: &self, depth: depth) }
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .class { return 0 }
      var total = 0
      for child in mirror.children { total += heapBytes(of: child.value, depth: depth + 1) }
      return total
    }

    /// Whether the buffer at `address` is to be counted: met for the first time in this estimate,
    /// and not counted by the previous one.
    mutating func counts(buffer address: UInt) -> Bool {
      guard buffers.insert(address).inserted else { return false }
      return !shared.contains(address)
    }

    /// The heap bytes of a collection's storage: its elements' stride times their count, plus
    /// what a sample of the elements holds in turn.
    mutating func collectionBytes<C: Collection>(_ collection: C, address: UInt?, depth: Int) -> Int {
      let count = collection.count
      guard count > 0 else { return 0 }
      if let address, !counts(buffer: address) { return 0 }
      var bytes = count * MemoryLayout<C.Element>.stride
      if !_isPOD(C.Element.self) {
        let samples = min(count, StateSizeEstimate.sampleCount)
        let step = count / samples
        var index = collection.startIndex
        var sampled = 0
        for taken in 0..<samples {
          sampled += heapBytes(of: collection[index], depth: depth + 1)
          if taken + 1 < samples { index = collection.index(index, offsetBy: step) }
        }
        bytes += sampled / samples * count
      }
      return bytes
    }
  }
}

/// Whether `Value` holds no references.
private func isPOD<Value>(_ value: Value) -> Bool { _isPOD(Value.self) }

/// A type whose heap storage the estimate knows how to count.
protocol HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int
}

extension String: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    let count = utf8.count
    return count > 15 ? count : 0
  }
}

extension Substring: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int { 0 }
}

extension Array: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    let address = withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    return walk.collectionBytes(self, address: address, depth: depth)
  }
}

extension ContiguousArray: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    let address = withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    return walk.collectionBytes(self, address: address, depth: depth)
  }
}

extension ArraySlice: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    let address = withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    return walk.collectionBytes(self, address: address, depth: depth)
  }
}

extension Set: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    walk.collectionBytes(self, address: storageIdentity(of: self), depth: depth)
  }
}

extension Dictionary: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    walk.collectionBytes(self, address: storageIdentity(of: self), depth: depth)
  }
}

/// The address of a hashed collection's storage: `Set` and `Dictionary` are one reference to it
/// (their layout is part of the standard library's stable ABI), which copies share until one is
/// changed. `nil` if a platform lays them out otherwise: the collection is then counted every time.
private func storageIdentity<Collection>(of collection: Collection) -> UInt? {
  guard MemoryLayout<Collection>.size == MemoryLayout<UInt>.size else { return nil }
  return unsafeBitCast(collection, to: UInt.self)
}

extension Data: HeapStored {
  func heapBytes(in walk: inout StateSizeEstimate.Walk, depth: Int) -> Int {
    // Up to 14 bytes are stored inline, and their address is a temporary one.
    guard count > 14 else { return 0 }
    let address = withUnsafeBytes { $0.baseAddress.map { UInt(bitPattern: $0) } }
    return walk.collectionBytes(self, address: address, depth: depth)
  }
}
