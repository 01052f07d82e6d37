import ChronicleInspection
import ChronicleJSON

/// An action (or state) that writes its own JSON into the journal's NDJSON stream and exports:
/// the same bytes its `Encodable` conformance gives, without `Encodable`'s containers.
///
/// Encoding a value through `Encodable` costs a keyed container per level (a box, and a
/// look-up of the container type's metadata in the runtime) before a byte is written: most of
/// what an ``NDJSONFileSink`` line costs when its action is one it has not met. A type that
/// writes itself skips that. Its writer is one line per case, naming the keys synthesized
/// `Codable` uses (the case's name; `_0`, `_1`… for unlabelled associated values, the labels
/// otherwise; `{}` for a case without any):
///
/// ```swift
/// enum Action: Codable, Sendable, JournalJSONWritable {
///   case add(Int)
///   case rename(to: String)
///   case reset
///
///   func writeJournalJSON(to json: inout JournalJSONWriter) {
///     switch self {
///     case .add(let amount): json.enumCase("add") { $0.member("_0", amount) }
///     case .rename(let name): json.enumCase("rename") { $0.member("to", name) }
///     case .reset: json.enumCase("reset")
///     }
///   }
/// }
/// ```
///
/// The conformance is checked, not trusted: a sink or export compares the writer's bytes with
/// the `Encodable` conformance's for the first value of each case it meets (up to 64 cases) and
/// for one value in 1,024 after. A value compared is written as `Encodable` writes it, and once
/// a comparison differs the writer is not used again by that sink or export (the sink's
/// ``NDJSONFileSink/journalJSONMismatch`` says where they differed). A writer wrong
/// only for some values of a case it got right once, or one that writes a case under another
/// case's name, can still slip through between two checks (cases are told apart by the name the
/// writer gives): test each case with ``journalJSONMismatch(redaction:)``.
///
/// Redaction holds either way: members of a type marked
/// ``/ChronicleInspection/SensitiveValue`` (or wrapped in ``/ChronicleInspection/Redacted``) go
/// through the encoder, which writes them `"<redacted>"`; a ``/ChronicleInspection/Redaction``
/// with key names or rules encodes every value through `Encodable`, where the writer is not used.
public protocol JournalJSONWritable: Encodable {
  /// Writes the value's JSON: exactly what its `encode(to:)` gives, key for key, in order.
  func writeJournalJSON(to json: inout JournalJSONWriter)
}

extension JournalJSONWritable {
  /// Where the value's own JSON differs from its `Encodable` conformance's, or `nil` when they
  /// are the same bytes: for a test of each case of ``writeJournalJSON(to:)``.
  ///
  /// The conformance is encoded as a sink or export would, under `redaction`.
  public func journalJSONMismatch(redaction: Redaction = .default) -> JournalJSONMismatch? {
    let encoder = StreamingJSONEncoder()
    var expected = JSONWriter()
    // Under a policy with key names or rules, a sink encodes through the tree encoder.
    if redaction.hasRules || encoder.write(self, into: &expected) == nil {
      guard let json = try? JSONValueEncoder(redaction: redaction).encode(self) else {
        return JournalJSONMismatch(offset: 0, expected: "", reason: .notEncodable)
      }
      expected.write(json)
    }
    var written = JSONWriter()
    guard JournalJSONWriter.write(self, into: &written, encoder: encoder) != nil else {
      return JournalJSONMismatch(
        offset: 0, expected: String(decoding: expected.bytes, as: UTF8.self), reason: .notWritten)
    }
    let difference = written.withUnsafeBytes { written in
      expected.withUnsafeBytes { SelfWritingMismatch.firstDifference(written, $0) }
    }
    guard let difference else { return nil }
    return JournalJSONMismatch(
      offset: difference, expected: String(decoding: expected.bytes, as: UTF8.self), reason: .differs)
  }
}

/// How a value's own JSON (``JournalJSONWritable``) differs from its `Encodable` conformance's.
///
/// It holds the conformance's JSON, redacted as the policy says, and where the writer's first
/// differs: nothing that only the writer wrote, which may be a secret the conformance redacts.
public struct JournalJSONMismatch: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why the two differ.
  public enum Reason: Sendable, Hashable {
    /// The bytes differ from ``offset`` on.
    case differs
    /// The writer wrote no value, or more than one, or a number JSON cannot hold.
    case notWritten
    /// The conformance threw: the value has no JSON to compare with.
    case notEncodable
  }

  /// The offset, in bytes of UTF-8, of the first byte that differs (the shorter text's length
  /// when one is the start of the other).
  public var offset: Int
  /// The `Encodable` conformance's JSON.
  public var expected: String
  /// Why the two differ.
  public var reason: Reason

  /// A difference at byte `offset` from the conformance's JSON `expected`, for `reason`.
  public init(offset: Int, expected: String, reason: Reason) {
    self.offset = offset
    self.expected = expected
    self.reason = reason
  }

  /// The difference in words, with the expected JSON and the offset.
  public var description: String {
    switch reason {
    case .differs: "the value's own JSON differs from its Encodable JSON \(expected) at byte \(offset)"
    case .notWritten: "the value's own writer wrote no single JSON value (expected \(expected))"
    case .notEncodable: "the value's Encodable conformance threw: nothing to compare with"
    }
  }
}

/// Writes one value's JSON for ``JournalJSONWritable/writeJournalJSON(to:)``: an object, an
/// enum case (an object of one member whose value is an object), or a single value.
///
/// Scalars (strings, integers, `Bool`, `Double`, `Float`, `Data`, `URL`, `Decimal`) are written as
/// the journal's encoder writes them; a ``JournalJSONWritable`` member by its own writer; any
/// other `Encodable` value is encoded by that encoder, redaction and all.
public struct JournalJSONWriter: ~Copyable {
  @usableFromInline let output: UnsafeMutablePointer<JSONWriter>
  @usableFromInline let encoder: StreamingJSONEncoder
  @usableFromInline var values = 0
  @usableFromInline var failed = false
  @usableFromInline var singleKey: String?

  @usableFromInline
  init(output: UnsafeMutablePointer<JSONWriter>, encoder: StreamingJSONEncoder) {
    self.output = output
    self.encoder = encoder
  }

  /// Writes the enum case `name` without associated values: `{"name":{}}`.
  @inlinable
  public mutating func enumCase(_ name: String) {
    enumCase(name) { _ in }
  }

  /// Writes the enum case `name` with the members `payload` writes: `{"name":{…}}`.
  @inlinable
  public mutating func enumCase(_ name: String, _ payload: (inout JournalJSONObject) -> Void) {
    object { $0.object(name, payload) }
  }

  /// Writes an object with the members `members` writes: `{…}`.
  @inlinable
  public mutating func object(_ members: (inout JournalJSONObject) -> Void) {
    values &+= 1
    var object = JournalJSONObject(output: output, encoder: encoder)
    object.open()
    members(&object)
    object.close()
    if object.failed { failed = true }
    singleKey = object.count == 1 ? object.firstKey : nil
  }

  /// Writes a single value, as a single-value container would.
  @inlinable
  public mutating func value(_ value: some Encodable) {
    values &+= 1
    // An object written as a single value keeps its one member's key, as the encoder's does.
    if let written = JournalJSONObject.write(value, into: output, encoder: encoder) {
      singleKey = written.singleKey
    } else {
      failed = true
    }
  }

  /// Writes `value` by its own writer after what `output` holds; `nil`, with `output` as it
  /// was, when the writer wrote no single value or wrote a number JSON cannot hold.
  static func write<Value: JournalJSONWritable>(
    _ value: Value, into output: inout JSONWriter, encoder: StreamingJSONEncoder
  ) -> StreamingJSONEncoder.Written? {
    let start = output.count
    let written: StreamingJSONEncoder.Written? = withUnsafeMutablePointer(to: &output) { pointer in
      var json = JournalJSONWriter(output: pointer, encoder: encoder)
      value.writeJournalJSON(to: &json)
      guard json.values == 1, !json.failed else { return nil }
      return StreamingJSONEncoder.Written(singleKey: json.singleKey)
    }
    if written == nil { output.removeSuffix(from: start) }
    return written
  }

  /// How values of `type` write themselves, when it is ``JournalJSONWritable``.
  static func selfWriting<Value>(_ type: Value.Type) -> SelfWriting<Value>? {
    guard let writable = type as? any JournalJSONWritable.Type else { return nil }
    func opened<Writable: JournalJSONWritable>(_: Writable.Type) -> SelfWriting<Value> {
      // `Writable` is `Value` (the metatype was `Value.self`, opened).
      { value, output, encoder in
        write(unsafeBitCast(value, to: Writable.self), into: &output, encoder: encoder)
      }
    }
    return opened(writable)
  }
}

/// Writes the members of an object for ``JournalJSONWriter``, in the order they are given.
public struct JournalJSONObject: ~Copyable {
  @usableFromInline let output: UnsafeMutablePointer<JSONWriter>
  @usableFromInline let encoder: StreamingJSONEncoder
  @usableFromInline var count = 0
  @usableFromInline var firstKey: String?
  @usableFromInline var failed = false

  @usableFromInline
  init(output: UnsafeMutablePointer<JSONWriter>, encoder: StreamingJSONEncoder) {
    self.output = output
    self.encoder = encoder
  }

  /// Writes the member `key` with `value`, as a keyed container's `encode(_:forKey:)` would.
  @inlinable
  public mutating func member(_ key: String, _ value: some Encodable) {
    self.key(key)
    if Self.write(value, into: output, encoder: encoder) == nil { failed = true }
  }

  /// Writes the member `key` with `value` unless it is `nil`, as synthesized `Codable`'s
  /// `encodeIfPresent(_:forKey:)` does: a `nil` member is left out.
  @inlinable
  public mutating func member<Value: Encodable>(_ key: String, _ value: Value?) {
    guard let value else { return }
    member(key, value)
  }

  /// Writes the member `key` whose value is an object with the members `members` writes, as a
  /// nested keyed container would.
  @inlinable
  public mutating func object(_ key: String, _ members: (inout JournalJSONObject) -> Void) {
    self.key(key)
    var object = JournalJSONObject(output: output, encoder: encoder)
    object.open()
    members(&object)
    object.close()
    if object.failed { failed = true }
  }

  @inlinable
  mutating func key(_ key: String) {
    if count == 0 {
      firstKey = key
    } else {
      output.pointee.append(UInt8(ascii: ","))
    }
    count &+= 1
    output.pointee.string(key)
    output.pointee.append(UInt8(ascii: ":"))
  }

  @inlinable
  func open() { output.pointee.append(UInt8(ascii: "{")) }

  @inlinable
  func close() { output.pointee.append(UInt8(ascii: "}")) }

  /// Writes a value as the journal's encoder does: scalars directly (``JSONWriter/scalar(_:)``,
  /// specialized where the writer is), a ``JournalJSONWritable`` value by its own writer (checked
  /// with the value it is part of), anything else through the encoder. `nil` for a number JSON
  /// cannot hold, a writer that wrote no single value, or a value the encoder hands back to the
  /// tree encoder.
  @inlinable
  static func write<Value: Encodable>(
    _ value: Value, into output: UnsafeMutablePointer<JSONWriter>, encoder: StreamingJSONEncoder
  ) -> StreamingJSONEncoder.Written? {
    if let written = output.pointee.scalar(value) {
      return written ? StreamingJSONEncoder.Written(singleKey: nil) : nil
    }
    if let writable = value as? any JournalJSONWritable {
      var json = JournalJSONWriter(output: output, encoder: encoder)
      writable.writeJournalJSON(to: &json)
      guard json.values == 1, !json.failed else { return nil }
      return StreamingJSONEncoder.Written(singleKey: json.singleKey)
    }
    return encoder.write(value, into: &output.pointee)
  }
}
