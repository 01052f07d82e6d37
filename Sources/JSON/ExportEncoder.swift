import ChronicleInspection

/// Turns states and actions into JSON for exports: through `Encodable` when the value conforms
/// (redacted as it is encoded), and as a redacted description otherwise.
///
/// An export encodes values of the same few types per entry: ``encoding(of:)`` makes, once per
/// type, an encoding for it that needs no look-up of the type's `Encodable` conformance per
/// value. Small values without references (most actions: `.increment`, `.add(5)`) are encoded
/// once per distinct value: their JSON is kept, keyed by their bytes, unless a rule closure
/// (which may read anything) decides redaction. One encoder is used by one thread at a time.
package struct ExportEncoder {
  package let redaction: Redaction
  private let encoder: JSONValueEncoder

  package init(redaction: Redaction) {
    self.redaction = redaction
    encoder = JSONValueEncoder(redaction: redaction)
  }

  /// The value's JSON and whether it is its encoding (replayable) rather than its description.
  package func encode(_ value: Any) -> (json: JSONValue, encoded: Bool) {
    if let encodable = value as? any Encodable, let json = try? encoder.encode(encodable) {
      return (json, true)
    }
    return (.string(description(of: value)), false)
  }

  /// ``encode(_:)``, and the parts written as `"<redacted>"` (none for a description).
  package func encodeRecordingRedactions(_ value: Any) -> (json: JSONValue, redacted: [RedactedPart]) {
    if let encodable = value as? any Encodable,
      let (json, parts) = try? encoder.encodeRecordingRedactions(encodable)
    {
      return (json, parts)
    }
    return (.string(description(of: value)), [])
  }

  /// The value's redacted one-line description.
  package func description(of value: Any) -> String {
    ValueDump.renderInline(value, redaction: redaction)
  }

  /// How values of `type` are encoded: straight through their `Encodable` conformance, found
  /// once, when `type` is a concrete `Encodable` type; by ``encode(_:)`` otherwise (`Any` and
  /// other existentials, whose values' types vary).
  ///
  /// A type that writes its own JSON (`selfWriting`, from `JournalJSONWritable`) is written by it
  /// where values are streamed, and checked against its `Encodable` conformance (see
  /// ``SelfWritingCheck``).
  package func encoding<Value>(
    of type: Value.Type, selfWriting: SelfWriting<Value>? = nil
  ) -> ValueEncoding<Value> {
    guard let encodable = type as? any Encodable.Type else {
      return ValueEncoding(exporter: self, typed: nil, streamed: nil)
    }
    // A policy with rules offers every value to them with its path: the tree encoder does.
    let check = redaction.hasRules || selfWriting == nil ? nil : SelfWritingCheck()
    let streamed: ((Value, inout JSONWriter) -> StreamingJSONEncoder.Written?)? =
      if redaction.hasRules {
        nil
      } else if let selfWriting, let check {
        Self.selfWritten(encodable, as: Value.self, by: selfWriting, checkedBy: check)
      } else {
        Self.streamed(encodable, as: Value.self)
      }
    return ValueEncoding(
      exporter: self,
      typed: Self.typed(encodable, as: Value.self, encoder: encoder, caching: !redaction.readsWholePaths),
      streamed: streamed, selfWritingCheck: check)
  }

  /// Writes values with their own writer, checked against their `Encodable` conformance as
  /// ``SelfWritingCheck`` says; a value its writer cannot write (it returns `nil`) goes through
  /// the streaming encoder, and every value does once a check found a difference.
  private static func selfWritten<Encoded: Encodable, Value>(
    _ type: Encoded.Type, as: Value.Type, by selfWriting: @escaping SelfWriting<Value>,
    checkedBy check: SelfWritingCheck
  ) -> (Value, inout JSONWriter) -> StreamingJSONEncoder.Written? {
    let encoder = StreamingJSONEncoder()
    return { value, writer in
      if check.isTrusted {
        let start = writer.count
        if let written = selfWriting(value, &writer, encoder) {
          guard check.isDue(written.singleKey) else { return written }
          let confirmed = check.confirm(
            writer, from: start, singleKey: written.singleKey,
            encoding: { encoder.write(unsafeBitCast(value, to: Encoded.self), into: &$0) })
          if confirmed { return written }
        }
        writer.removeSuffix(from: start)
      }
      return encoder.write(unsafeBitCast(value, to: Encoded.self), into: &writer)
    }
  }

  /// Writes values straight to bytes (see ``StreamingJSONEncoder``); small values without
  /// references, as ``typed(_:as:encoder:caching:)`` does, once per distinct value.
  private static func streamed<Encoded: Encodable, Value>(
    _ type: Encoded.Type, as: Value.Type
  ) -> (Value, inout JSONWriter) -> StreamingJSONEncoder.Written? {
    let encoder = StreamingJSONEncoder()
    guard _isPOD(Encoded.self), MemoryLayout<Encoded>.size <= SmallValueBytes.capacity else {
      return { value, writer in encoder.write(unsafeBitCast(value, to: Encoded.self), into: &writer) }
    }
    let cache = SmallBytesCache()
    return { value, writer in
      let value = unsafeBitCast(value, to: Encoded.self)
      guard cache.isWorthLookingUp else { return encoder.write(value, into: &writer) }
      let key = withUnsafeBytes(of: value) { SmallValueBytes($0) }
      if let position = cache.table.position(of: key) {
        cache.hits += 1
        return cache.write(position, into: &writer)
      }
      let start = writer.count
      guard let written = encoder.write(value, into: &writer) else { return nil }
      if !cache.table.isFull {
        writer.withUnsafeBytes { output in
          cache.add(key, bytes: UnsafeRawBufferPointer(rebasing: output[start...]), written)
        }
      } else {
        cache.missesWhileFull += 1
      }
      return written
    }
  }

  private static func typed<Encoded: Encodable, Value>(
    _ type: Encoded.Type, as: Value.Type, encoder: JSONValueEncoder, caching: Bool
  ) -> (Value) throws -> JSONValue {
    // `Encoded` is `Value` (the metatype was `Value.self`, opened): the cast reinterprets a
    // value as its own type.
    guard caching, _isPOD(Encoded.self), MemoryLayout<Encoded>.size <= SmallValueBytes.capacity else {
      return { value in try encoder.encode(unsafeBitCast(value, to: Encoded.self)) }
    }
    let cache = SmallValueCache()
    return { value in
      let value = unsafeBitCast(value, to: Encoded.self)
      // A type without references whose bytes are equal holds equal values, which encode
      // alike; padding that differs only makes a miss.
      let key = withUnsafeBytes(of: value) { SmallValueBytes($0) }
      if let position = cache.table.position(of: key) { return cache.table.payloads[position] }
      let json = try encoder.encode(value)
      cache.table.add(key, json)
      return json
    }
  }
}

/// Encodes values of one type for an export (see ``ExportEncoder/encoding(of:)``).
///
/// A class: generic code copies a reference without asking the runtime for the type's metadata,
/// which a struct of a generic type costs on every use (measured: a tenth of an export's time).
@usableFromInline
package final class ValueEncoding<Value> {
  package let exporter: ExportEncoder
  package let typed: ((Value) throws -> JSONValue)?
  /// Writes a value's JSON straight to bytes, or returns `nil` for the tree encoder to do it.
  package let streamed: ((Value, inout JSONWriter) -> StreamingJSONEncoder.Written?)?
  /// How the type's own JSON writer is checked, when it has one and it is used.
  package let selfWritingCheck: SelfWritingCheck?
  /// Values that ``streamed`` handed back so far: past ``fallbackLimit``, a type that always
  /// does (a hand-written encoding using a super encoder) goes straight to the tree encoder.
  private var fallbacks = 0
  private static var fallbackLimit: Int { 16 }

  package init(
    exporter: ExportEncoder, typed: ((Value) throws -> JSONValue)?,
    streamed: ((Value, inout JSONWriter) -> StreamingJSONEncoder.Written?)?,
    selfWritingCheck: SelfWritingCheck? = nil
  ) {
    self.exporter = exporter
    self.typed = typed
    self.streamed = streamed
    self.selfWritingCheck = selfWritingCheck
  }

  /// The value's JSON and whether it is its encoding (replayable) rather than its description.
  package func encode(_ value: Value) -> (json: JSONValue, encoded: Bool) {
    if let typed, let json = try? typed(value) { return (json, true) }
    return exporter.encode(value)
  }

  /// Writes the value's JSON (the same bytes as ``encode(_:)``'s); returns whether it is its
  /// encoding (replayable) rather than its description, and the key of its only member when
  /// it is an encoded object of one member (an enum case's name).
  @usableFromInline
  package func write(_ value: Value, into writer: inout JSONWriter) -> (encoded: Bool, singleKey: String?) {
    if let streamed, fallbacks < Self.fallbackLimit {
      if let written = streamed(value, &writer) { return (true, written.singleKey) }
      fallbacks += 1
    }
    let (json, encoded) = encode(value)
    writer.write(json)
    if encoded, case .object(let members) = json, members.count == 1 { return (true, members[0].key) }
    return (encoded, nil)
  }
}

/// The JSON of the small values of one type met so far, by their bytes.
private final class SmallValueCache {
  // Used by one thread at a time, as its encoder is.
  @exclusivity(unchecked) var table = SmallValueTable<JSONValue>()
}

/// The JSON bytes of the small values of one type met so far, by their bytes.
private final class SmallBytesCache {
  // Used by one thread at a time, as its encoder is: no run-time exclusivity checks.
  /// Where each value's bytes are in ``bytes``, and what writing it returned.
  @exclusivity(unchecked) var table = SmallValueTable<KeptBytes>()
  /// The bytes of every value in ``table``, one after the other.
  @exclusivity(unchecked) private var bytes: [UInt8] = []
  @exclusivity(unchecked) var hits = 0
  /// Values not found once the cache was full.
  @exclusivity(unchecked) var missesWhileFull = 0

  /// Whether looking a value up still pays: not once the cache is full and most values are new
  /// (`.add(n)` with `n` counting up), where the look-up costs what writing the value does.
  var isWorthLookingUp: Bool { missesWhileFull < 4_096 || missesWhileFull < 8 * hits }

  /// Where a value's bytes are in ``bytes``, and what writing it returned.
  typealias KeptBytes = (start: Int, count: Int, written: StreamingJSONEncoder.Written)

  /// Keeps the bytes a value was written as, unless the table is full.
  func add(
    _ key: SmallValueBytes, bytes written: UnsafeRawBufferPointer, _ result: StreamingJSONEncoder.Written
  ) {
    guard !table.isFull else { return }
    table.add(key, (bytes.count, written.count, result))
    bytes.append(contentsOf: written)
  }

  /// Appends the bytes of the value at `position` in ``table`` to `writer`.
  func write(_ position: Int, into writer: inout JSONWriter) -> StreamingJSONEncoder.Written {
    let (start, count, written) = table.payloads[position]
    bytes.withUnsafeBytes { writer.append(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
    return written
  }
}

/// Writes a value's JSON by the value's own code (`JournalJSONWritable.writeJournalJSON(to:)`),
/// after what `JSONWriter` holds, with the streaming encoder for the members it cannot write
/// itself; returns what a streaming encoder's write returns, or `nil`, having written nothing,
/// when it could not write the value (a number JSON cannot hold, a member handed back).
package typealias SelfWriting<Value> =
  (Value, inout JSONWriter, StreamingJSONEncoder) -> StreamingJSONEncoder.Written?

/// When a type's own JSON writer is compared with its `Encodable` conformance, and what it
/// found: the first value of each of the first ``keyLimit`` single keys (enum cases) met, and
/// one value in ``interval`` after. A value compared is written as `Encodable` writes it
/// whatever its writer wrote, and once a comparison differs (or the conformance needs the
/// tree encoder, which cannot be compared here) the writer is not used again.
package final class SelfWritingCheck {
  // Used by one thread at a time, as its encoder is.
  /// Whether the writer is still used: no comparison has found a difference.
  @exclusivity(unchecked) package private(set) var isTrusted = true
  /// The single keys whose first value was compared (`nil` for values that are no object of
  /// one member).
  @exclusivity(unchecked) private var checkedKeys: [String?] = []
  @exclusivity(unchecked) private var sinceLastCheck = 0
  /// The encoding a comparison is made with.
  @exclusivity(unchecked) private var reference = JSONWriter()
  /// What the comparison that failed found.
  @exclusivity(unchecked) package private(set) var mismatch: SelfWritingMismatch?

  package static var interval: Int { 1_024 }
  package static var keyLimit: Int { 64 }

  package init() {}

  /// Whether the value just written, whose single key is `singleKey`, is to be compared.
  @inline(__always)
  package func isDue(_ singleKey: String?) -> Bool {
    sinceLastCheck &+= 1
    if sinceLastCheck >= Self.interval { return true }
    for key in checkedKeys where key == singleKey { return false }
    return checkedKeys.count < Self.keyLimit
  }

  /// Compares what `writer` holds from `start` on with what `encoding` writes; on a difference
  /// (or when `encoding` cannot write the value) distrusts the writer from then on, and the
  /// caller writes the value through the encoder instead. Returns whether they matched.
  package func confirm(
    _ writer: borrowing JSONWriter, from start: Int, singleKey: String?,
    encoding: (inout JSONWriter) -> StreamingJSONEncoder.Written?
  ) -> Bool {
    sinceLastCheck = 0
    reference.removeAll()
    let expected = encoding(&reference)
    let difference: Int? = writer.withUnsafeBytes { written in
      reference.withUnsafeBytes { reference in
        SelfWritingMismatch.firstDifference(UnsafeRawBufferPointer(rebasing: written[start...]), reference)
      }
    }
    guard let expected else {
      isTrusted = false
      return false
    }
    if difference == nil, expected.singleKey == singleKey {
      if checkedKeys.count < Self.keyLimit, !checkedKeys.contains(singleKey) { checkedKeys.append(singleKey) }
      return true
    }
    isTrusted = false
    mismatch = SelfWritingMismatch(
      offset: difference ?? reference.count, expected: reference.bytes, singleKey: expected.singleKey)
    return false
  }
}

/// Where a value's own JSON first differs from its `Encodable` conformance's.
package struct SelfWritingMismatch: Sendable, Equatable {
  /// The offset of the first byte that differs (the shorter text's length when one is a prefix
  /// of the other).
  package var offset: Int
  /// What the conformance wrote (redacted as the policy says: nothing the writer alone wrote).
  package var expected: [UInt8]
  /// The conformance's single key.
  package var singleKey: String?

  /// The offset of the first byte at which `a` and `b` differ, or `nil` when they are equal.
  package static func firstDifference(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int? {
    let common = Swift.min(a.count, b.count)
    for index in 0..<common where a[index] != b[index] { return index }
    return a.count == b.count ? nil : common
  }
}
