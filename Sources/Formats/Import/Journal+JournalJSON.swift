import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension Journal where State: Decodable, Action: Decodable {
  /// Imports a Journal JSON document (see docs/formats/journal-json.md), such as one written by
  /// ``JournalSnapshot/journalJSON(options:)``.
  ///
  /// The document must have been recorded with the same `State` and `Action` types: another type
  /// name, or a state whose stored properties differ, is refused with
  /// ``JournalImportError/typeMismatch(_:expected:found:difference:)``. Any other problem throws
  /// the ``JournalImportError`` that names the entry and field; nothing is half-imported.
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - reducer: The reducer that recomputes states between checkpoints.
  ///   - configuration: The new journal's configuration; its caps apply to what it records next.
  ///   - limits: Bounds on the input.
  @inlinable
  public convenience init<R: Reducer>(
    journalJSON data: Data, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) where R.State == State, R.Action == Action {
    try self.init(
      journalJSON: data, configuration: configuration, limits: limits,
      addingEntries: .specialized
    ) { reducer.reduce(into: &$0, action: $1) }
  }

  /// Imports a Journal JSON file (see ``init(journalJSON:reducer:configuration:limits:)``).
  ///
  /// The file is read in blocks, one entry at a time: memory grows with the journal, not with
  /// the file.
  @inlinable
  public convenience init<R: Reducer>(
    contentsOfJournalJSON url: URL, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) where R.State == State, R.Action == Action {
    try self.init(
      contentsOfJournalJSON: url, configuration: configuration, limits: limits,
      addingEntries: .specialized
    ) { reducer.reduce(into: &$0, action: $1) }
  }

  /// Imports the document `data` (see ``init(journalJSON:reducer:configuration:limits:)``),
  /// adding the entries read from tokens with `addEntry`.
  @usableFromInline
  convenience init(
    journalJSON data: Data, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws(JournalImportError) {
    let content = try Self.importJournalJSON(
      data, configuration: configuration, limits: limits, addingEntries: addEntry)
    self.init(content: content, configuration: configuration, reduce: reduce)
  }

  /// Imports the file at `url` (see ``init(contentsOfJournalJSON:reducer:configuration:limits:)``),
  /// adding the entries read from tokens with `addEntry`.
  @usableFromInline
  convenience init(
    contentsOfJournalJSON url: URL, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws(JournalImportError) {
    let file = try FileInput(url)
    try file.check(limit: limits.maxBytes)
    let window = DocumentWindow(FileBlocks(file), blockSize: 1 << 20, limit: limits.maxBytes)
    let content = try Self.importJournalJSON(
      window, configuration: configuration, limits: limits, addingEntries: addEntry)
    self.init(content: content, configuration: configuration, reduce: reduce)
  }

  static func importJournalJSON(
    _ data: Data, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>
  ) throws(JournalImportError) -> JournalContent<State, Action> {
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: "(document)", limit: limits.maxBytes)
    }
    let result: Result<JournalContent<State, Action>, JournalImportError> = data.withUnsafeBytes { raw in
      do throws(JournalImportError) {
        let window = DocumentWindow(whole: raw.bindMemory(to: UInt8.self))
        return .success(
          try importJournalJSON(window, configuration: configuration, limits: limits, addingEntries: addEntry)
        )
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Reads the document member by member, and `entries` and `effects` one element at a time,
  /// so that only one entry at a time is held (as tokens, or as a JSON tree when the fast path
  /// does not take it). A document whose lists come before its header (not as this library
  /// writes it) is read all the same, holding those lists.
  static func importJournalJSON(
    _ window: DocumentWindow, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>
  ) throws(JournalImportError) -> JournalContent<State, Action> {
    var reader = WindowedParser(window, limits: limits.parser)
    guard try reader.peek(UInt8(ascii: "{")) else {
      _ = try reader.step { parser throws(JSONParser.Failure) in try parser.parseValue() }
      throw .wrongFormat(expected: JournalWireFormat.journalFormat, found: nil)
    }
    try reader.step { parser throws(JSONParser.Failure) in try parser.beginObject() }
    var header: [String: JSONValue] = [:]
    var seen = Set<JSONKey>()
    var builder: JournalBuilder<State, Action>?
    var heldLists: [(key: String, elements: [JSONValue])] = []
    var entryCount = 0
    var first = true
    while let key = try nextMember(&reader, first: first) {
      first = false
      guard seen.insert(JSONKey(key)).inserted else {
        throw .duplicateKey(entry: nil, field: "(document)", key: key)
      }
      if key == "entries" || key == "effects" {
        if builder == nil, ["format", "version", "meta", "baseState"].allSatisfy({ header[$0] != nil }) {
          builder = try makeBuilder(header, configuration: configuration, limits: limits)
        }
        if builder != nil, try reader.peek(UInt8(ascii: "[")), var current = builder.take() {
          let count = try streamList(key, into: &current, reader: &reader, addingEntries: addEntry)
          if key == "entries" { entryCount = count }
          builder = current
        } else {
          let value = try reader.step { parser throws(JSONParser.Failure) in try parser.parseValue() }
          guard case .array(let elements) = value else {
            throw .wrongType(entry: nil, field: key, expected: "array", found: value.typeName)
          }
          heldLists.append((key, elements))
        }
      } else {
        header[key] = try reader.step { parser throws(JSONParser.Failure) in try parser.parseValue() }
      }
      reader.parser.endMember()
    }
    try reader.finish()

    var finished: JournalBuilder<State, Action>
    if let built = builder.take() {
      finished = built
    } else {
      finished = try makeBuilder(header, configuration: configuration, limits: limits)
    }
    entryCount += try addHeldLists(heldLists, to: &finished)
    guard seen.contains(JSONKey("entries")) else { throw .missingField(entry: nil, field: "entries") }
    guard seen.contains(JSONKey("effects")) else { throw .missingField(entry: nil, field: "effects") }
    try checkEntryCount(header, read: entryCount)
    return finished.content
  }

  /// The key of the document's next member, `nil` at its end.
  private static func nextMember(
    _ reader: inout WindowedParser, first: Bool
  ) throws(JournalImportError) -> String? {
    try reader.step { parser throws(JSONParser.Failure) in try parser.nextMember(first: first) }
  }

  /// Reads the array of `key` (`entries` or `effects`) element by element into `builder`;
  /// returns how many it held.
  private static func streamList(
    _ key: String, into builder: inout JournalBuilder<State, Action>, reader: inout WindowedParser,
    addingEntries addEntry: EntryAdding<State, Action>
  ) throws(JournalImportError) -> Int {
    try reader.step { parser throws(JSONParser.Failure) in try parser.beginArray() }
    let tape = JSONTape()
    var index = 0
    while try reader.step({ parser throws(JSONParser.Failure) in try parser.nextElement(index: index) }) {
      // An entry is read from tokens; a value the tape does not take is read as a tree, which
      // reports the exact error.
      if key == "entries", try reader.readTape(tape) != nil {
        try addEntry.add(&builder, tape.view, 0, key, index, false)
        reader.parser.endMember()
        index += 1
        continue
      }
      let element = try reader.step { parser throws(JSONParser.Failure) in try parser.parseValue() }
      reader.parser.endMember()
      if key == "entries" {
        try builder.addEntry(element, position: index)
      } else {
        try builder.addEvent(element, path: FieldPath([.key(key), .index(index)]))
      }
      index += 1
    }
    return index
  }

  /// Adds the lists read before the header, entries before effects; returns how many entries.
  private static func addHeldLists(
    _ lists: [(key: String, elements: [JSONValue])], to builder: inout JournalBuilder<State, Action>
  ) throws(JournalImportError) -> Int {
    var entries = 0
    for list in lists.sorted(by: { $0.key > $1.key }) {
      for (index, element) in list.elements.enumerated() {
        if list.key == "entries" {
          try builder.addEntry(element, position: index)
          entries += 1
        } else {
          try builder.addEvent(element, path: FieldPath([.key(list.key), .index(index)]))
        }
      }
    }
    return entries
  }

  /// Refuses a document whose `meta.entryCount` differs from the entries it holds.
  private static func checkEntryCount(_ header: [String: JSONValue], read: Int) throws(JournalImportError) {
    guard let metaValue = header["meta"] else { throw .missingField(entry: nil, field: "meta") }
    let meta = try FieldReader(metaValue, path: FieldPath([.key("meta")]))
    let declared = try meta.integer("entryCount", in: JournalNumberRange.indices)
    guard declared == read else {
      throw .invalidValue(
        entry: nil, field: "meta.entryCount", reason: "says \(declared) entries, the file has \(read)")
    }
  }

  /// Checks the header members and sets up the builder with the base state.
  private static func makeBuilder(
    _ header: [String: JSONValue], configuration: Configuration, limits: JournalImportLimits
  ) throws(JournalImportError) -> JournalBuilder<State, Action> {
    let format: String?
    if case .string(let text)? = header["format"] { format = text } else { format = nil }
    guard format == JournalWireFormat.journalFormat else {
      throw .wrongFormat(expected: JournalWireFormat.journalFormat, found: format)
    }
    let root = try FieldReader(.object(header.map { JSONMember($0.key, $0.value) }), path: FieldPath())
    try checkVersion(root)
    let meta = try root.object("meta")
    let fields = try JournalBuilder<State, Action>.readMeta(meta)
    var builder = JournalBuilder<State, Action>(
      originWallNanos: fields.originWallNanos, checkpointInterval: fields.checkpointInterval, limits: limits,
      stateSize: configuration.size(of:))
    builder.expectStateShape(fields.stateShape)
    let firstIndex = try meta.integer("firstIndex", in: JournalNumberRange.indices)
    builder.expectFirstIndex(firstIndex)
    let base = try root.required("baseState")
    if base != .null {
      let state = try builder.decodeState(base, path: FieldPath([.key("baseState")]))
      try builder.addCheckpoint(state, index: firstIndex, kind: .resync, path: FieldPath([.key("baseState")]))
    }
    return builder
  }

  static func checkVersion(_ root: FieldReader) throws(JournalImportError) {
    let version = try root.required("version")
    guard case .number(let text) = version else {
      throw .wrongType(entry: nil, field: "version", expected: "integer", found: version.typeName)
    }
    guard text == String(JournalWireFormat.version) else {
      throw .unsupportedVersion(found: text, supported: JournalWireFormat.version)
    }
  }
}
