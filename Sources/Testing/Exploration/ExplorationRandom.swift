/// The explorer's seeded random number generator: xoshiro256** seeded through SplitMix64.
///
/// Both algorithms are fixed integer arithmetic, so a seed gives the same numbers on every
/// platform and with every Swift version; the explorer draws its numbers only through
/// ``next(below:)``, which is its own too (the standard library's bounded `random(in:using:)`
/// may change its algorithm between versions).
///
/// ```swift
/// var random = ExplorationRandom(seed: 42)
/// let index = random.next(below: 10)   // the same on every machine
/// ```
public struct ExplorationRandom: RandomNumberGenerator, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator whose numbers are a function of `seed` alone.
  public init(seed: UInt64) {
    var mixer = seed
    s0 = Self.splitMix(&mixer)
    s1 = Self.splitMix(&mixer)
    s2 = Self.splitMix(&mixer)
    s3 = Self.splitMix(&mixer)
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    nextBits()
  }

  private mutating func nextBits() -> UInt64 {
    let result = rotate(s1 &* 5, 7) &* 9
    let shifted = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= shifted
    s3 = rotate(s3, 45)
    return result
  }

  /// A number in `0..<bound`, without bias (Lemire's multiply-and-reject); 0 when `bound` is
  /// not positive.
  public mutating func next(below bound: Int) -> Int {
    guard bound > 1 else { return 0 }
    let limit = UInt64(bound)
    var product = nextBits().multipliedFullWidth(by: limit)
    if product.low < limit {
      let threshold = (0 &- limit) % limit
      while product.low < threshold {
        product = nextBits().multipliedFullWidth(by: limit)
      }
    }
    return Int(product.high)
  }

  /// The seed of the `index`th run after `seed`: run 0 uses `seed` itself, so the seed a failure
  /// prints, given back as the explorer's seed, makes the failing run the first one.
  static func runSeed(_ seed: UInt64, run index: Int) -> UInt64 {
    guard index > 0 else { return seed }
    var mixer = seed &+ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03
    return splitMix(&mixer)
  }

  private static func splitMix(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@inline(__always)
private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
  (value << count) | (value >> (64 &- count))
}
