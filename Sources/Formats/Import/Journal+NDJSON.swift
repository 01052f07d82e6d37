import ChronicleJSON
import ChronicleStore
import ChronicleTracer
import Foundation

extension Journal where State: Decodable, Action: Decodable {
  /// Loads a stream written by ``NDJSONFileSink`` (see docs/formats/journal-ndjson.md).
  ///
  /// A last line without its newline — the writer was killed while writing it — is left out
  /// and reported in ``NDJSONLoadResult/tornLine``; every line before it is kept. Anything else
  /// wrong (a corrupt line in the middle, another type, another format) throws the
  /// ``JournalImportError`` that names the entry and field. The file is read in blocks: memory
  /// grows with the journal, not with the file.
  @inlinable
  public static func loadNDJSON<R: Reducer>(
    contentsOf url: URL, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> NDJSONLoadResult<State, Action> where R.State == State, R.Action == Action {
    try loadNDJSON(
      contentsOf: url, configuration: configuration, limits: limits,
      addingEntries: .specialized
    ) { reducer.reduce(into: &$0, action: $1) }
  }

  /// Loads an NDJSON stream held in memory (see ``loadNDJSON(contentsOf:reducer:configuration:limits:)``).
  @inlinable
  public static func loadNDJSON<R: Reducer>(
    _ data: Data, reducer: R,
    configuration: Configuration = Configuration(maxEntries: nil, maxBytes: nil),
    limits: JournalImportLimits = .default
  ) throws(JournalImportError) -> NDJSONLoadResult<State, Action> where R.State == State, R.Action == Action {
    try loadNDJSON(
      data, configuration: configuration, limits: limits, addingEntries: .specialized
    ) { reducer.reduce(into: &$0, action: $1) }
  }

  /// Loads the stream in the file at `url` (see ``loadNDJSON(contentsOf:reducer:configuration:limits:)``),
  /// adding the entries read from tokens with `addEntry`.
  @usableFromInline
  static func loadNDJSON(
    contentsOf url: URL, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws(JournalImportError) -> NDJSONLoadResult<State, Action> {
    let file = try FileInput(url)
    try file.check(limit: limits.maxBytes)
    var loader = NDJSONLoader<State, Action>(
      configuration: configuration, limits: limits, addingEntries: addEntry)
    while true {
      let block = try file.read(upTo: 1 << 20)
      if block.isEmpty { break }
      try loader.consume(block)
    }
    return try loader.finish(reduce: reduce)
  }

  /// Loads the stream `data` (see ``loadNDJSON(_:reducer:configuration:limits:)``), adding the
  /// entries read from tokens with `addEntry`.
  @usableFromInline
  static func loadNDJSON(
    _ data: Data, configuration: Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>,
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws(JournalImportError) -> NDJSONLoadResult<State, Action> {
    var loader = NDJSONLoader<State, Action>(
      configuration: configuration, limits: limits, addingEntries: addEntry)
    try loader.consume(Array(data))
    return try loader.finish(reduce: reduce)
  }
}

/// Splits an NDJSON stream into lines as blocks arrive and feeds them to a ``JournalBuilder``.
struct NDJSONLoader<State: Decodable & Sendable, Action: Decodable & Sendable> {
  private let configuration: Journal<State, Action>.Configuration
  private let limits: JournalImportLimits
  private var builder: JournalBuilder<State, Action>?
  /// Bytes of the line not finished yet.
  private var pending: [UInt8] = []
  private var pendingOffset = 0
  private var lineNumber = 0
  private var totalBytes = 0
  /// The bytes from the first NUL after the last newline on: a mapped sink's unwritten tail.
  private var unwritten = 0
  private var scratch = JSONParser.Scratch()
  /// The tokens of the line being read, reused from line to line.
  private let tape = JSONTape()
  private let addEntry: EntryAdding<State, Action>

  init(
    configuration: Journal<State, Action>.Configuration, limits: JournalImportLimits,
    addingEntries addEntry: EntryAdding<State, Action>
  ) {
    self.configuration = configuration
    self.limits = limits
    self.addEntry = addEntry
  }

  mutating func consume(_ block: [UInt8]) throws(JournalImportError) {
    let blockStart = totalBytes
    totalBytes += block.count
    guard totalBytes <= limits.maxBytes else {
      throw .tooLarge(entry: nil, field: "(document)", limit: limits.maxBytes)
    }
    if unwritten > 0 {
      if block.withUnsafeBufferPointer(UnwrittenTail.hasNewline) {
        throw UnwrittenTail.lineAfterTail(
          lineNumber: lineNumber + 1, byteOffset: totalBytes - block.count - unwritten)
      }
      unwritten += block.count
      return
    }
    let start = try block.withUnsafeBufferPointer { (block) throws(JournalImportError) in
      try completeLines(of: block, at: blockStart)
    }
    guard start < block.count else { return }
    if pending.isEmpty { pendingOffset = blockStart + start }
    var end = block.count
    if let tail = block.withUnsafeBufferPointer({
      UnwrittenTail.start(in: UnsafeBufferPointer(rebasing: $0[start...]))
    }) {
      end = start + tail
      unwritten = block.count - end
    }
    pending.append(contentsOf: block[start..<end])
    if pending.count > limits.maxLineBytes {
      throw .tooLarge(entry: nil, field: "line \(lineNumber + 1)", limit: limits.maxLineBytes)
    }
  }

  /// Reads the lines of `block` that end in it, read in place (the first one after what
  /// ``pending`` holds); returns where the rest of the block begins.
  private mutating func completeLines(
    of block: UnsafeBufferPointer<UInt8>, at blockStart: Int
  ) throws(JournalImportError) -> Int {
    var start = 0
    while let newline = block[start...].firstIndex(of: UInt8(ascii: "\n")) {
      if pending.isEmpty {
        try line(UnsafeBufferPointer(rebasing: block[start..<newline]), offset: blockStart + start)
      } else {
        pending.append(contentsOf: block[start..<newline])
        let line = pending
        try line.withUnsafeBufferPointer { (line) throws(JournalImportError) in
          try self.line(line, offset: pendingOffset)
        }
        pending.removeAll(keepingCapacity: true)
      }
      start = newline + 1
    }
    return start
  }

  private mutating func line(_ line: UnsafeBufferPointer<UInt8>, offset: Int) throws(JournalImportError) {
    lineNumber += 1
    guard try NDJSONRecord.hasContent(line, lineNumber: lineNumber, limits: limits) else { return }
    // Taken out, not copied: a copy would share the journal content's storage, and the first
    // entry added would copy it.
    guard var builder = builder.take() else {
      builder = try header(line, offset: offset)
      return
    }
    defer { self.builder = builder }
    if try addEntryFromTape(line, to: &builder) { return }
    let record = try NDJSONRecord.read(
      line, lineNumber: lineNumber, byteOffset: offset, entries: builder.entryCount,
      effects: builder.eventCount, limits: limits, scratch: &scratch)
    switch record {
    case .entry(let value):
      try builder.addEntry(value, position: builder.entryCount, checkpointRequired: true, branches: true)
    case .effect(let value):
      try builder.addEvent(value, path: FieldPath([.key("effects"), .index(builder.eventCount)]))
    }
  }

  /// Adds the line's entry from its tokens (see ``JournalBuilder/addEntry(tape:at:list:position:checkpointRequired:branches:)``);
  /// `false` when the line is anything else, or a value the tape does not take: the line is
  /// then read as a tree, which reports the exact error.
  private func addEntryFromTape(
    _ line: UnsafeBufferPointer<UInt8>, to builder: inout JournalBuilder<State, Action>
  ) throws(JournalImportError) -> Bool {
    var parser = JSONParser(bytes: line, limits: limits.parser)
    parser.skipWhitespace()
    guard (try? tape.read(&parser)) != nil, (try? parser.finish()) != nil else { return false }
    let view = tape.view
    guard view[0].kind == .object, view[0].count == 1, view.string(1, is: "entry") else { return false }
    try addEntry.add(&builder, view, 2, "entries", builder.entryCount, true)
    return true
  }

  private func header(
    _ bytes: UnsafeBufferPointer<UInt8>, offset: Int
  ) throws(JournalImportError) -> JournalBuilder<State, Action> {
    let value: JSONValue
    do throws(JSONParser.Failure) {
      value = try JSONParser.parse(bytes, limits: limits.parser, path: FieldPath())
    } catch {
      throw JournalImportError(error, byteOffset: offset)
    }
    let root = try FieldReader(value, path: FieldPath())
    let format: String?
    if let value = root.optional("format"), case .string(let text) = value {
      format = text
    } else {
      format = nil
    }
    guard format == JournalWireFormat.streamFormat else {
      throw .wrongFormat(expected: JournalWireFormat.streamFormat, found: format)
    }
    try Journal<State, Action>.checkVersion(root)
    let header = try JournalBuilder<State, Action>.readMeta(root.object("meta"))
    var builder = JournalBuilder<State, Action>(
      originWallNanos: header.originWallNanos, checkpointInterval: header.checkpointInterval, limits: limits,
      stateSize: configuration.size(of:))
    builder.expectStateShape(header.stateShape)
    return builder
  }

  func finish(
    reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws(JournalImportError) -> NDJSONLoadResult<State, Action> {
    var torn: TornLine?
    if !pending.isEmpty || unwritten > 0 {
      torn = TornLine(
        lineNumber: lineNumber + 1, byteOffset: pendingOffset, byteCount: pending.count,
        unwrittenByteCount: unwritten)
    }
    let content: JournalContent<State, Action>
    if let builder {
      content = builder.content
    } else {
      // Nothing complete, not even the header: an empty journal.
      content = JournalContent(
        originWallNanos: Int64((Date().timeIntervalSince1970 * 1e9).rounded()),
        originMonotonic: MonotonicClock.now(),
        checkpointInterval: configuration.effectiveCheckpointInterval, chunkCapacity: 1024)
    }
    let journal = Journal(content: content, configuration: configuration, reduce: reduce)
    return NDJSONLoadResult(journal: journal, tornLine: torn)
  }
}
