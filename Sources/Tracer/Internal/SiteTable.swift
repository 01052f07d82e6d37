import ChronicleStore

/// Interned call sites: each distinct pair (where an action was sent, where the effect that sent
/// it was created) is stored once, and entries refer to it by a `UInt32` code.
///
/// Code `0` stands for "no site". A program has as many sites as it has `send` calls, so the
/// table stays small however long the journal is: an entry pays its 4-byte code, nothing more
/// (checked by a test). Sites are never released: they are code locations, a set bounded by the
/// program's size, so the table is not counted against the journal's byte cap either.
@usableFromInline
struct SiteTable: Sendable {
  /// A pair of sites as the tracer receives them: compared and hashed by the literals' addresses,
  /// never by their text, so that the tracer's path builds no string.
  @usableFromInline
  struct LiteralKey: Hashable, Sendable {
    @usableFromInline let file: UInt
    @usableFromInline let function: UInt
    @usableFromInline let line: UInt32
    @usableFromInline let effectFile: UInt
    @usableFromInline let effectFunction: UInt
    @usableFromInline let effectLine: UInt32

    @inlinable
    init(_ site: CallSite?, _ effectSite: CallSite?) {
      file = site.map { UInt(bitPattern: $0.fileStart) } ?? 0
      function = site.map { UInt(bitPattern: $0.functionStart) } ?? 0
      line = site?.line ?? 0
      effectFile = effectSite.map { UInt(bitPattern: $0.fileStart) } ?? 0
      effectFunction = effectSite.map { UInt(bitPattern: $0.functionStart) } ?? 0
      effectLine = effectSite?.line ?? 0
    }
  }

  /// A pair of sites as text.
  @usableFromInline
  struct Pair: Hashable, Sendable {
    @usableFromInline var site: RecordedCallSite?
    @usableFromInline var effectSite: RecordedCallSite?
  }

  /// The pairs by code - 1.
  @usableFromInline private(set) var pairs: [Pair] = []
  private var codes: [Pair: UInt32] = [:]
  @usableFromInline var literalCodes: [LiteralKey: UInt32] = [:]
  /// The last pair looked up by its literals: most entries repeat the previous one's sites, and
  /// comparing with it is cheaper than hashing.
  @usableFromInline var last: (key: LiteralKey, code: UInt32)?
  /// The bytes held, for the journal's size estimate.
  @usableFromInline private(set) var byteCount = 0

  @usableFromInline init() {}

  /// The code of the pair (`site`, `effectSite`), interning it; 0 when both are `nil`.
  @inlinable @inline(__always)
  mutating func code(for site: CallSite?, effectSite: CallSite?) -> UInt32 {
    if site == nil && effectSite == nil { return 0 }
    let key = LiteralKey(site, effectSite)
    if let last, last.key == key { return last.code }
    return code(switchingTo: key, site, effectSite)
  }

  @usableFromInline
  mutating func code(switchingTo key: LiteralKey, _ site: CallSite?, _ effectSite: CallSite?) -> UInt32 {
    let code =
      literalCodes[key]
      ?? code(
        for: Pair(site: site.map(RecordedCallSite.init), effectSite: effectSite.map(RecordedCallSite.init)))
    literalCodes[key] = code
    last = (key, code)
    return code
  }

  /// The code of `pair`, interning it; 0 when it holds no site.
  @usableFromInline
  mutating func code(for pair: Pair) -> UInt32 {
    if pair.site == nil && pair.effectSite == nil { return 0 }
    if let code = codes[pair] { return code }
    pairs.append(pair)
    let code = UInt32(pairs.count)
    codes[pair] = code
    byteCount += 64 + (pair.site.map { $0.fileID.utf8.count + $0.function.utf8.count } ?? 0)
    byteCount += pair.effectSite.map { $0.fileID.utf8.count + $0.function.utf8.count } ?? 0
    return code
  }

  /// The code of the pair (`site`, `effectSite`) read from a file, interning it.
  @usableFromInline
  mutating func code(for site: RecordedCallSite?, effectSite: RecordedCallSite?) -> UInt32 {
    code(for: Pair(site: site, effectSite: effectSite))
  }

  /// The site of the pair stored under `code`: the field copied alone, where reading it from a
  /// copy of the pair copied and released the other site's strings too.
  @inlinable func site(for code: UInt32) -> RecordedCallSite? {
    code == 0 ? nil : pairs[Int(code) - 1].site
  }

  /// The effect's site of the pair stored under `code`.
  @inlinable func effectSite(for code: UInt32) -> RecordedCallSite? {
    code == 0 ? nil : pairs[Int(code) - 1].effectSite
  }
}
