/// Up to 16 bytes of a value, zero-padded: the key under which an export keeps what a small value
/// without references is written as (see ``ExportEncoder``).
package struct SmallValueBytes: Equatable {
  package static let capacity = 16

  package var low: UInt64 = 0
  package var high: UInt64 = 0

  package init(low: UInt64, high: UInt64) {
    self.low = low
    self.high = high
  }

  package init(_ bytes: UnsafeRawBufferPointer) {
    withUnsafeMutableBytes(of: &self) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(target.count)))
    }
  }

  /// The bytes mixed into 64 bits (splitmix64's finalizer over both words): every input bit
  /// reaches the low bits that pick a slot.
  package var mixed: UInt64 {
    var mixed = low &+ high &* 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// Small values of one type met so far, by their bytes, each with what it is written as: at most
/// ``limit`` of them, in an open-addressed table with a mixing hash.
///
/// A `Dictionary` hashed each key with SipHash (seeded per process) and returned its value
/// through an optional: a fifth of a Journal JSON export of repeated actions. The keys are the
/// app's own values, which cannot be chosen to collide by someone else; if they did collide, a
/// look-up would compare at most ``limit`` keys.
package struct SmallValueTable<Payload> {
  /// The most values kept.
  package static var limit: Int { 1_024 }

  /// Twice as many slots as values at most (a power of two), so that a probe meets an empty slot
  /// soon: 0 for an empty slot, otherwise 1 + the value's position in ``keys``.
  private var slots: [Int32]
  /// The values' bytes, in the order they were added.
  private(set) var keys: [SmallValueBytes] = []
  /// What each value in ``keys`` is written as, at the same position.
  private(set) var payloads: [Payload] = []

  package init() {
    slots = [Int32](repeating: 0, count: 2 * Self.limit)
  }

  package var count: Int { keys.count }
  package var isFull: Bool { keys.count >= Self.limit }

  /// The position in ``payloads`` of the value whose bytes are `key`, if it was added.
  package func position(of key: SmallValueBytes) -> Int? {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key.mixed) & mask
    while true {
      let entry = Int(slots[slot])
      if entry == 0 { return nil }
      if keys[entry - 1] == key { return entry - 1 }
      slot = (slot + 1) & mask
    }
  }

  /// Adds the value whose bytes are `key`, which is not in the table yet, with `payload`;
  /// nothing once the table holds ``limit`` values.
  package mutating func add(_ key: SmallValueBytes, _ payload: Payload) {
    guard !isFull else { return }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key.mixed) & mask
    // At most half of the slots are taken: the probe ends.
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    keys.append(key)
    payloads.append(payload)
    slots[slot] = Int32(keys.count)
  }
}
