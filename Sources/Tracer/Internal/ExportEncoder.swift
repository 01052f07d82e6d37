import ChronicleStore

/// Turns states and actions into JSON for exports: through `Encodable` when the value conforms
/// (redacted as it is encoded), and as a redacted description otherwise.
///
/// An export encodes a value of the same few types per entry, so what the first value of a type
/// costs (the look-up of its `Encodable` conformance) is paid once per type: later values of it
/// are encoded through a function made for the type. Small values without references (most
/// actions: `.increment`, `.add(5)`) are encoded once per distinct value: their JSON is kept,
/// keyed by their bytes, unless a rule closure (which may read anything) decides redaction.
/// One encoder is used by one thread at a time.
struct ExportEncoder {
  let redaction: Redaction
  private let encoder: JSONValueEncoder
  private let plans = Plans()

  init(redaction: Redaction) {
    self.redaction = redaction
    encoder = JSONValueEncoder(redaction: redaction)
  }

  /// The value's JSON and whether it is its encoding (replayable) rather than its description.
  func encode<Value>(_ value: Value) -> (json: JSONValue, encoded: Bool) {
    if let plan = plan(for: Value.self), let json = try? plan.encode(value, encoder) {
      return (json, true)
    }
    if let encodable = value as? any Encodable, let json = try? encoder.encode(encodable) {
      return (json, true)
    }
    return (.string(description(of: value)), false)
  }

  /// ``encode(_:)``, and the parts written as `"<redacted>"` (none for a description).
  func encodeRecordingRedactions(_ value: Any) -> (json: JSONValue, redacted: [RedactedPart]) {
    if let encodable = value as? any Encodable,
      let (json, parts) = try? encoder.encodeRecordingRedactions(encodable)
    {
      return (json, parts)
    }
    return (.string(description(of: value)), [])
  }

  /// The value's redacted one-line description.
  func description(of value: Any) -> String {
    ValueDump.renderInline(value, redaction: redaction)
  }

  /// How values of `type` are encoded, when it is a concrete `Encodable` type; `nil` for other
  /// types (and existentials such as `Any`, whose values' types vary), which take the dynamic path.
  private func plan<Value>(for type: Value.Type) -> Plan? {
    let id = ObjectIdentifier(type)
    if let known = plans.byType[id] { return known }
    guard let encodable = type as? any Encodable.Type else {
      plans.byType[id] = .some(nil)
      return nil
    }
    let plan = Plan(encodable, caching: !redaction.readsWholePaths)
    plans.byType[id] = plan
    return plan
  }
}

/// The plans made so far, by type.
private final class Plans {
  var byType: [ObjectIdentifier: Plan?] = [:]
}

/// How values of one `Encodable` type are encoded.
private final class Plan {
  /// The most distinct small values whose JSON is kept per type.
  static let cacheLimit = 1_024
  /// The largest value (in bytes) kept by its bytes.
  static let cachedSize = 16

  /// Encodes a value of the plan's type (through the cache, for a cacheable type).
  let encode: (Any, JSONValueEncoder) throws -> JSONValue

  init<Value: Encodable>(_ type: Value.Type, caching: Bool) {
    guard caching, _isPOD(Value.self), MemoryLayout<Value>.size <= Self.cachedSize else {
      encode = { value, encoder in try encoder.encode(Self.cast(value, to: Value.self)) }
      return
    }
    let cache = SmallValueCache()
    encode = { value, encoder in
      let value = try Self.cast(value, to: Value.self)
      // A type without references whose bytes are equal holds equal values, which encode
      // alike; padding that differs only makes a miss.
      let key = withUnsafeBytes(of: value) { SmallValueBytes($0) }
      if let json = cache.json[key] { return json }
      let json = try encoder.encode(value)
      if cache.json.count < Self.cacheLimit { cache.json[key] = json }
      return json
    }
  }

  private static func cast<Value>(_ value: Any, to type: Value.Type) throws -> Value {
    guard let value = value as? Value else {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: [], debugDescription: "not a \(Value.self)"))
    }
    return value
  }
}

/// The JSON of the small values of one type met so far, by their bytes.
private final class SmallValueCache {
  var json: [SmallValueBytes: JSONValue] = [:]
}

/// Up to 16 bytes of a value, zero-padded.
private struct SmallValueBytes: Hashable {
  var low: UInt64 = 0
  var high: UInt64 = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    withUnsafeMutableBytes(of: &self) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(target.count)))
    }
  }
}
