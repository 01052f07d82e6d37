import ChronicleInspection
import Foundation

/// Encodes `Encodable` values straight to JSON bytes, exactly as ``JSONValueEncoder`` followed by
/// ``JSONWriter/write(_:)`` would, without building a ``JSONValue`` tree.
///
/// It writes keys and values as the value's `encode(to:)` calls arrive, which works when the
/// containers are used in order, as synthesized `Codable` always does: a keyed container filled
/// key by key, a nested container finished before its parent's next key or element. When they
/// are not (a key encoded twice, a container used after a later sibling started, a super
/// encoder, a single value container written twice or after a container), the bytes written so
/// far are dropped and ``write(_:into:)`` returns `nil`: the caller encodes the value with the
/// tree encoder instead, which places each write where it belongs. An error thrown while
/// encoding does the same, so the caller meets the tree encoder's error.
///
/// Only for a ``Redaction`` without key names or rules (the default): values marked as sensitive
/// are written `"<redacted>"`, as the tree encoder writes them. A policy with rules goes through
/// the tree encoder, which offers every value to them with its path.
///
/// The containers opened while encoding are kept and reused from one value to the next (an
/// export encodes a value or two per entry). An encoder is used by one thread at a time.
@usableFromInline
package final class StreamingJSONEncoder {
  /// Whether each type met is a sensitive value, learned once per type.
  private let types = EncodedTypes()
  // An encoder is written by one thread, from the value's `encode(to:)` down, and none of its
  // properties is modified while another access to it is under way: the run-time exclusivity
  // checks (measured: a quarter of the time a sink's thread spent on an action) are left out,
  // here and in `Frame`.
  /// The output, swapped in from the caller for the duration of a ``write(_:into:)``.
  @exclusivity(unchecked) fileprivate var writer = JSONWriter()
  /// The frames made so far, reused from one value to the next: the first ``depth`` are the
  /// open containers and encoders, outermost first (the path from the value's root to the
  /// container being written).
  @exclusivity(unchecked) private var frames: [Frame] = []
  @exclusivity(unchecked) private var depth = 0
  /// Set when the value's `encode(to:)` used its containers out of order.
  @exclusivity(unchecked) fileprivate var failed = false
  /// The last type met that is none of the scalars written directly: most values met are of
  /// the type before (a journal's actions), which then skip comparing it with each scalar type.
  @exclusivity(unchecked) private var lastComposite: ObjectIdentifier?
  /// Keyed containers made so far, by the type of their keys, handed out again once no one
  /// holds them: making one asked the runtime for three generic types' metadata and a
  /// conformance (a quarter of a small action's time), which a type's first container pays.
  @exclusivity(unchecked) private var keyedContainers: [KeyedContainerEntry] = []
  /// The key types of ``keyedContainers``, in the same order: looked through without reading
  /// the entries, each read of which was a retain and a release.
  @exclusivity(unchecked) private var keyedContainerTypes: [ObjectIdentifier] = []
  /// Whether a ``write(_:into:)`` is under way: only then are kept containers handed out, since
  /// their cursors point at the encoder without keeping it (see ``KeyedCursor``).
  @exclusivity(unchecked) private var isWriting = false
  private static var keyedContainerLimit: Int { 8 }
  /// Whether containers are kept for reuse: not by the stand-in that a container held past its
  /// value writes through (see ``detached()``), which never finishes a value to let them go.
  private let keepsContainers: Bool

  package init() { keepsContainers = true }

  private init(keepingContainers: Bool) { keepsContainers = keepingContainers }

  /// An encoder for a container held past its value's writing: what it is asked to write goes
  /// nowhere, and it keeps nothing that would keep it.
  fileprivate static func detached() -> StreamingJSONEncoder {
    StreamingJSONEncoder(keepingContainers: false)
  }

  /// The result of writing a value.
  @usableFromInline
  package struct Written {
    /// The key of the value's only member, when it is an object of exactly one member: an
    /// enum case's name under synthesized `Codable`.
    @usableFromInline package var singleKey: String?

    @usableFromInline
    package init(singleKey: String?) { self.singleKey = singleKey }
  }

  /// Appends the JSON of `value` to `output`; `nil`, with `output` as it was, when `value` must
  /// be encoded by the tree encoder (see the type's description).
  @usableFromInline
  package func write<T: Encodable>(_ value: T, into output: inout JSONWriter) -> Written? {
    let start = output.count
    swap(&writer, &output)
    failed = false
    isWriting = true
    var singleKey: String?
    do {
      singleKey = try box(value, parent: nil, key: nil)
    } catch {
      failed = true
    }
    while depth > 0 { closeLast() }
    // A kept container held past its value writes nothing (its cursor no longer points at
    // this encoder, which it does not keep).
    isWriting = false
    for entry in keyedContainers { entry.cursor.close() }
    swap(&writer, &output)
    if failed {
      output.removeSuffix(from: start)
      return nil
    }
    return Written(singleKey: singleKey)
  }

  // MARK: Frames

  /// Whether a `KeyedEncodingContainer` is laid out as one reference, its box, which keeping
  /// containers relies on (the type is not frozen): checked once, so that a standard library
  /// that lays it out otherwise gets a new container each time, never a wrong one.
  private static let containerIsItsBox =
    MemoryLayout<KeyedEncodingContainer<LayoutProbeKey>>.size == MemoryLayout<AnyObject>.size
    && MemoryLayout<KeyedEncodingContainer<LayoutProbeKey>>.alignment == MemoryLayout<AnyObject>.alignment

  /// A keyed container for `Key` writing to `handle`'s frame: one made before, if no one
  /// holds it any more, pointed at that frame.
  fileprivate func keyedContainer<Key: CodingKey>(
    keyedBy: Key.Type, handle: Handle
  ) -> KeyedEncodingContainer<Key> {
    let type = ObjectIdentifier(Key.self)
    if isWriting {
      for index in keyedContainerTypes.indices where keyedContainerTypes[index] == type {
        let entry = keyedContainers[index]
        guard isKnownUniquelyReferenced(&entry.box) else { continue }
        entry.cursor.open(on: self, handle: handle)
        // The box is a `KeyedEncodingContainer<Key>`'s only stored property, kept as it was made.
        return unsafeBitCast(entry.box, to: KeyedEncodingContainer<Key>.self)
      }
    }
    let keeps =
      isWriting && keepsContainers && Self.containerIsItsBox
      && keyedContainers.count < Self.keyedContainerLimit
    let cursor = KeyedCursor(encoder: self, handle: handle, kept: keeps)
    let container = KeyedEncodingContainer(StreamKeyedContainer<Key>(cursor: cursor))
    if keeps {
      keyedContainers.append(
        KeyedContainerEntry(cursor: cursor, box: unsafeBitCast(container, to: AnyObject.self)))
      keyedContainerTypes.append(type)
    }
    return container
  }

  fileprivate func frame(_ kind: Frame.Kind, parent: Frame?, key: (any CodingKey)?) -> Frame {
    if depth == frames.count { frames.append(Frame()) }
    let frame = frames[depth]
    depth += 1
    frame.kind = kind
    frame.parent = parent
    frame.key = key
    return frame
  }

  /// Makes `handle`'s frame the one written, closing the ones opened inside it since; `false`
  /// (and the value falls back) when the frame was closed already or the encoding failed.
  fileprivate func activate(_ handle: Handle) -> Bool {
    guard !failed else { return false }
    guard handle.frame.generation == handle.generation else {
      failed = true
      return false
    }
    // A valid handle's frame is open: among the first `depth`.
    while frames[depth - 1] !== handle.frame { closeLast() }
    return true
  }

  /// Writes the end of the innermost open frame and puts it aside for reuse; handles to it are
  /// no longer valid.
  private func closeLast() {
    depth -= 1
    let frame = frames[depth]
    switch frame.kind {
    // An encoder that wrote nothing is an empty object, as `JSONEncoder` writes.
    case .pending: writer.raw("{}")
    case .object: writer.append(UInt8(ascii: "}"))
    case .array: writer.append(UInt8(ascii: "]"))
    case .value: break
    }
    frame.generation &+= 1
    // Its parent and key stay until the frame is reused, which replaces them: a stale handle
    // fails before it reads them, and releasing them here cost a tenth of a small value's time.
    frame.count = 0
    if !frame.keys.isEmpty { frame.keys.removeAll(keepingCapacity: true) }
    if frame.keySet != nil { frame.keySet = nil }
    if frame.valueSingleKey != nil { frame.valueSingleKey = nil }
  }

  /// Writes the member key `key` of the object `frame`, after a comma for all but the first;
  /// `false` (and the value falls back) for a key written before, which the tree encoder
  /// replaces in place.
  fileprivate func member(_ key: some CodingKey, of frame: Frame) -> Bool {
    let name = key.stringValue
    if frame.count == 0 {
      // Most objects an action makes have one member (an enum case, its payload): their key
      // needs no array.
      frame.firstKey = name
    } else {
      if frame.keySet != nil {
        guard frame.keySet?.insert(name).inserted == true else { return fail() }
      } else {
        guard name != frame.firstKey, !frame.keys.contains(name) else { return fail() }
        frame.keys.append(name)
        if frame.keys.count >= Frame.linearLimit { frame.keySet = Set(frame.keys + [frame.firstKey]) }
      }
      writer.append(UInt8(ascii: ","))
    }
    frame.count += 1
    writer.string(name)
    writer.append(UInt8(ascii: ":"))
    return true
  }

  /// Writes the comma before the next element of the array `frame` and counts the element;
  /// returns its position.
  fileprivate func element(of frame: Frame) -> Int {
    if frame.count > 0 { writer.append(UInt8(ascii: ",")) }
    frame.count += 1
    return frame.count - 1
  }

  fileprivate func fail() -> Bool {
    failed = true
    return false
  }

  // MARK: Values

  /// Writes `value`, at `key` below `parent`: a scalar directly, a sensitive value as the
  /// placeholder, anything else through its `encode(to:)` into a new encoder. Returns, for the
  /// root, the key of its only member.
  @discardableResult
  fileprivate func box<T: Encodable>(
    _ value: T, parent: Frame?, key: (any CodingKey)?
  ) throws -> String? {
    let type = ObjectIdentifier(T.self)
    if type != lastComposite {
      if try primitive(value) { return nil }
      lastComposite = type
    }
    if types.isSensitive(T.self) {
      writer.string(Redaction.placeholder)
      return nil
    }
    let frame = frame(.pending, parent: parent, key: key)
    let handle = Handle(frame: frame)
    try value.encode(to: StreamEncoder(encoder: self, handle: handle))
    // Its `encode(to:)` has returned: close what it opened, unless it was closed by a sibling
    // written meanwhile (out of order: the value falls back).
    guard activate(handle) else { return nil }
    let singleKey: String? =
      switch frame.kind {
      case .object: frame.count == 1 ? frame.firstKey : nil
      case .value: frame.valueSingleKey
      case .pending, .array: nil
      }
    closeLast()
    return singleKey
  }

  /// Writes `value` if it is one of the types the tree encoder writes directly (see
  /// `EncodingContext.primitive` and ``JSONWriter/scalar(_:)``).
  private func primitive<T>(_ value: T) throws -> Bool {
    guard let written = writer.scalar(value) else { return false }
    // The tree encoder throws for a number JSON cannot hold, with the value's coding path: let it.
    guard written else { throw StreamingFallback() }
    return true
  }

  fileprivate func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_ number: F) throws {
    // The tree encoder throws for it, with the value's coding path: let it.
    guard writer.floating(number) else { throw StreamingFallback() }
  }

  fileprivate func codingPath(_ frame: Frame?, key: (any CodingKey)? = nil) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    if let key { keys.append(key) }
    var link = frame
    while let current = link {
      if let key = current.key { keys.append(key) }
      link = current.parent
    }
    return keys.reversed()
  }
}

/// Thrown to hand a value over to the tree encoder, which throws the error it calls for.
private struct StreamingFallback: Error {}

/// An encoder or container being written: the object or array it writes, or the value of a
/// single value container, and where it sits in the coding path.
private final class Frame {
  enum Kind {
    /// An encoder that chose no container yet.
    case pending
    case object
    case array
    /// A single value was written.
    case value
  }

  static let linearLimit = 16

  @exclusivity(unchecked) var kind = Kind.pending
  /// Bumped when the frame is closed: a handle to it is valid while its generation matches.
  @exclusivity(unchecked) var generation: UInt64 = 0
  @exclusivity(unchecked) var parent: Frame?
  @exclusivity(unchecked) var key: (any CodingKey)?
  /// Members or elements written.
  @exclusivity(unchecked) var count = 0
  /// The first key written, when ``count`` is at least 1.
  @exclusivity(unchecked) var firstKey = ""
  /// The keys written after the first, to tell a repeated one.
  @exclusivity(unchecked) var keys: [String] = []
  /// The keys written (the first included), once there are more than a linear search's worth.
  @exclusivity(unchecked) var keySet: Set<String>?
  /// For a single value: the key of its only member, when it is an object of one member.
  @exclusivity(unchecked) var valueSingleKey: String?
}

/// A keyed container kept by the encoder (see `StreamingJSONEncoder.keyedContainer`); the
/// type of its keys is the encoder's `keyedContainerTypes` at the same position.
///
/// A class: in an array of structs, the uniqueness check of an element's box went through a
/// copy of the element, which made the box never unique.
private final class KeyedContainerEntry {
  let cursor: KeyedCursor
  /// The `KeyedEncodingContainer`'s box: uniquely referenced when only the encoder holds it.
  @exclusivity(unchecked) var box: AnyObject

  init(cursor: KeyedCursor, box: AnyObject) {
    self.cursor = cursor
    self.box = box
  }
}

/// Where a keyed container writes: a class, so that the encoder can point a container it made
/// before at a new frame.
///
/// A cursor the encoder keeps (see `StreamingJSONEncoder.keyedContainer`) points at it without
/// keeping it: the encoder keeps the cursor, and points it at itself only while it writes a value
/// (``open(on:handle:)``, ``close()``), so that handing a kept container out and taking it back
/// costs no reference count operation on the encoder, two atomic ones per container before. A
/// cursor the encoder does not keep keeps its encoder, as a container held anywhere must.
private final class KeyedCursor {
  /// The encoder to write through, while the cursor is open; `nil` once the value it was handed
  /// out for is written.
  @exclusivity(unchecked) unowned(unsafe) private(set) var encoder: StreamingJSONEncoder?
  /// The encoder, kept by a cursor the encoder does not keep.
  private let keeper: StreamingJSONEncoder?
  @exclusivity(unchecked) var handle: Handle

  init(encoder: StreamingJSONEncoder, handle: Handle, kept: Bool) {
    self.encoder = encoder
    keeper = kept ? nil : encoder
    self.handle = handle
  }

  /// Points a kept cursor at `encoder`, which is writing a value, and at `handle`'s frame.
  func open(on encoder: StreamingJSONEncoder, handle: Handle) {
    self.encoder = encoder
    self.handle = handle
  }

  /// Detaches a kept cursor from its encoder, whose value is written.
  func close() {
    encoder = nil
  }
}

/// A frame, as long as it is open.
private struct Handle {
  let frame: Frame
  let generation: UInt64

  init(frame: Frame) {
    self.frame = frame
    generation = frame.generation
  }
}

/// The `Encoder` handed to a value's `encode(to:)`.
private struct StreamEncoder: Encoder, SingleValueEncodingContainer {
  let encoder: StreamingJSONEncoder
  let handle: Handle

  var codingPath: [any CodingKey] { encoder.codingPath(handle.frame.parent, key: handle.frame.key) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if encoder.activate(handle) {
      switch handle.frame.kind {
      case .pending:
        encoder.writer.append(UInt8(ascii: "{"))
        handle.frame.kind = .object
      case .object: break
      case .array, .value: _ = encoder.fail()
      }
    }
    return encoder.keyedContainer(keyedBy: Key.self, handle: handle)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if encoder.activate(handle) {
      switch handle.frame.kind {
      case .pending:
        encoder.writer.append(UInt8(ascii: "["))
        handle.frame.kind = .array
      case .array: break
      case .object, .value: _ = encoder.fail()
      }
    }
    return StreamUnkeyedContainer(encoder: encoder, handle: handle)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: SingleValueEncodingContainer

  /// Whether the single value can be written now: once, into an encoder that chose no container.
  private func claim() -> Bool {
    guard encoder.activate(handle) else { return false }
    guard handle.frame.kind == .pending else { return encoder.fail() }
    handle.frame.kind = .value
    return true
  }

  func encodeNil() throws {
    if claim() { encoder.writer.raw("null") }
  }

  func encode<T: Encodable>(_ value: T) throws {
    guard claim() else { return }
    // The value's own encoder has this one's place in the coding path, as in the tree encoder.
    let frame = handle.frame
    frame.valueSingleKey = try encoder.box(value, parent: frame.parent, key: frame.key)
  }

  func encode(_ value: Bool) throws {
    if claim() { encoder.writer.raw(value ? "true" : "false") }
  }
  func encode(_ value: String) throws {
    if claim() { encoder.writer.string(value) }
  }
  func encode(_ value: Int) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: Int8) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: Int16) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: Int32) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: Int64) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: UInt) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: UInt8) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: UInt16) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: UInt32) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: UInt64) throws {
    if claim() { encoder.writer.integer(value) }
  }
  func encode(_ value: Double) throws {
    if claim() { try encoder.floating(value) }
  }
  func encode(_ value: Float) throws {
    if claim() { try encoder.floating(value) }
  }
}

private struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let cursor: KeyedCursor

  /// The encoder; for a container held past its value's writing, a detached one, in which its
  /// handle (to a frame closed since) writes nothing.
  private var encoder: StreamingJSONEncoder { cursor.encoder ?? .detached() }

  var codingPath: [any CodingKey] { encoder.codingPath(cursor.handle.frame) }

  /// Starts the member `key`: the encoder to write its value with, or `nil` when it is not to
  /// be written. The encoder is read once per member: each read retains it.
  private func member(_ key: Key) -> StreamingJSONEncoder? {
    guard let encoder = cursor.encoder else { return nil }
    let handle = cursor.handle
    return encoder.activate(handle) && encoder.member(key, of: handle.frame) ? encoder : nil
  }

  mutating func encodeNil(forKey key: Key) throws {
    member(key)?.writer.raw("null")
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    member(key)?.writer.raw(value ? "true" : "false")
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    member(key)?.writer.string(value)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    member(key)?.writer.integer(value)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard let encoder = member(key) else { return }
    try encoder.box(value, parent: cursor.handle.frame, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let (encoder, nested) = open(.object, forKey: key)
    return encoder.keyedContainer(keyedBy: NestedKey.self, handle: nested)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let (encoder, nested) = open(.array, forKey: key)
    return StreamUnkeyedContainer(encoder: encoder, handle: nested)
  }

  /// Opens a nested object or array as the member `key`: the encoder and the nested frame's
  /// handle, or this container's when the member is not written (the nested one writes nothing).
  private func open(_ kind: Frame.Kind, forKey key: Key) -> (StreamingJSONEncoder, Handle) {
    guard let encoder = member(key) else { return (self.encoder, cursor.handle) }
    encoder.writer.append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    return (encoder, Handle(frame: encoder.frame(kind, parent: cursor.handle.frame, key: key)))
  }

  // The tree encoder places a super encoder's value when it is resolved, wherever it was
  // written from: the value falls back to it.
  mutating func superEncoder() -> any Encoder {
    let encoder = self.encoder
    _ = encoder.fail()
    return StreamEncoder(encoder: encoder, handle: cursor.handle)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder()
  }
}

private struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: StreamingJSONEncoder
  let handle: Handle

  var codingPath: [any CodingKey] { encoder.codingPath(handle.frame) }
  var count: Int { handle.frame.generation == handle.generation ? handle.frame.count : 0 }

  mutating func encodeNil() throws {
    guard encoder.activate(handle) else { return }
    _ = encoder.element(of: handle.frame)
    encoder.writer.raw("null")
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard encoder.activate(handle) else { return }
    let position = encoder.element(of: handle.frame)
    try encoder.box(value, parent: handle.frame, key: IndexKey(intValue: position))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.keyedContainer(keyedBy: NestedKey.self, handle: open(.object))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(encoder: encoder, handle: open(.array))
  }

  /// Opens a nested object or array as the next element.
  private func open(_ kind: Frame.Kind) -> Handle {
    guard encoder.activate(handle) else { return handle }
    let position = encoder.element(of: handle.frame)
    encoder.writer.append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    return Handle(
      frame: encoder.frame(kind, parent: handle.frame, key: IndexKey(intValue: position)))
  }

  mutating func superEncoder() -> any Encoder {
    _ = encoder.fail()
    return StreamEncoder(encoder: encoder, handle: handle)
  }
}

/// A key type for ``StreamingJSONEncoder``'s layout check alone.
private struct LayoutProbeKey: CodingKey {
  var stringValue: String { "" }
  var intValue: Int? { nil }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}
