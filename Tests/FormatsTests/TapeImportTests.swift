import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A reducer over actions without references, which the importer decodes once per distinct text.
private struct Tally: Reducer {
  struct State: Equatable, Sendable, Codable { var total = 0 }
  enum Action: Equatable, Sendable, Codable {
    case add(Int)
    case reset
    case scale(by: Int, offset: Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total += amount
    case .reset: state.total = 0
    case .scale(let factor, let offset): state.total = state.total * factor + offset
    }
    return .none
  }
}

/// The entries of a Journal JSON export, each as its own JSON text, and the export's header.
private func entryTexts(_ export: Data) throws -> [[UInt8]] {
  let root = try JSONParser.parse(
    Array(export), limits: JSONParser.Limits(maxDepth: 128, maxStringBytes: .max, maxNumberLength: 64))
  guard case .array(let entries)? = root["entries"] else { return [] }
  return entries.map(JSONWriter.serialize)
}

/// A builder for `Counter` journals, as the Journal JSON importer sets one up for `export`.
private func counterBuilder(_ export: Data) throws -> JournalBuilder<Counter.State, Counter.Action> {
  let root = try JSONParser.parse(
    Array(export), limits: JSONParser.Limits(maxDepth: 128, maxStringBytes: .max, maxNumberLength: 64))
  var builder = JournalBuilder<Counter.State, Counter.Action>(
    originWallNanos: try FieldReader.integer(
      try #require(root["meta"]?["origin"]?["wallTime"]), path: FieldPath()),
    checkpointInterval: 3, limits: .default, stateSize: { _ in 1 })
  builder.expectFirstIndex(0)
  let base = try builder.decodeState(try #require(root["baseState"]), path: FieldPath([.key("baseState")]))
  try builder.addCheckpoint(base, index: 0, kind: .resync, path: FieldPath([.key("baseState")]))
  return builder
}

/// Reads `text` onto `tape` and adds it to `builder` from its tokens.
private func addFromTape<State, Action>(
  _ text: [UInt8], to builder: inout JournalBuilder<State, Action>, tape: JSONTape, ordinal: Int
) throws {
  try text.withUnsafeBufferPointer { buffer in
    var parser = JSONParser(bytes: buffer, limits: JournalImportLimits.default.parser)
    try tape.read(&parser)
    try builder.addEntry(tape: tape.view, at: 0, list: "entries", position: ordinal)
  }
}

@Suite struct TapeImportTests {
  @Test func everyEntryOfARecordedRunIsReadFromTokens() async throws {
    let (journal, _) = await recordedRun()
    let export = journal.snapshot().journalJSON()
    var builder = try counterBuilder(export)
    let tape = JSONTape()
    for (ordinal, text) in try entryTexts(export).enumerated() {
      try addFromTape(text, to: &builder, tape: tape, ordinal: ordinal)
    }
    #expect(builder.entryCount == journal.count)
  }

  @Test func entriesReadFromTokensMakeTheJournalThatTreesMake() async throws {
    let (journal, _) = await recordedRun()
    let export = journal.snapshot().journalJSON()
    var fromTokens = try counterBuilder(export)
    var fromTrees = try counterBuilder(export)
    let tape = JSONTape()
    for (ordinal, text) in try entryTexts(export).enumerated() {
      try addFromTape(text, to: &fromTokens, tape: tape, ordinal: ordinal)
      try fromTrees.addEntry(
        JSONParser.parse(text, limits: JournalImportLimits.default.parser), position: ordinal)
    }
    func reexport(_ builder: JournalBuilder<Counter.State, Counter.Action>) -> Data {
      Journal(content: builder.content, configuration: .init(maxEntries: nil, maxBytes: nil)) {
        Counter().reduce(into: &$0, action: $1)
      }
      .snapshot().journalJSON()
    }
    #expect(reexport(fromTokens) == reexport(fromTrees))
  }

  @Test func anEntryTheTapeRefusesThrowsTheErrorThatNamesItsFieldAndAddsNothing() async throws {
    let (journal, _) = await recordedRun()
    let export = journal.snapshot().journalJSON()
    var builder = try counterBuilder(export)
    let tape = JSONTape()
    let first = try #require(try entryTexts(export).first)
    let broken = Array(
      String(decoding: first, as: UTF8.self).replacingOccurrences(of: #""seq":1"#, with: #""seq":0"#).utf8)
    #expect(
      throws: JournalImportError.numberOutOfRange(
        entry: 0, field: "entries[0].seq", value: "0 (valid: 1…9007199254740991)")
    ) {
      try addFromTape(broken, to: &builder, tape: tape, ordinal: 0)
    }
    #expect(builder.entryCount == 0)
    try addFromTape(first, to: &builder, tape: tape, ordinal: 0)
    #expect(builder.entryCount == 1)
  }

  @Test func anEnvelopeKeyWrittenWithAnEscapeIsReadFromTokens() async throws {
    let (journal, _) = await recordedRun()
    let export = journal.snapshot().journalJSON()
    var builder = try counterBuilder(export)
    let tape = JSONTape()
    let first = try #require(try entryTexts(export).first)
    let escaped = Array(
      String(decoding: first, as: UTF8.self).replacingOccurrences(of: #""seq":"#, with: #""se\u0071":"#).utf8)
    #expect(String(decoding: escaped, as: UTF8.self).contains(#""se\u0071":1"#))
    try addFromTape(escaped, to: &builder, tape: tape, ordinal: 0)
    #expect(builder.entryCount == 1)
    #expect(builder.content.entries[0].sequence == 1)
  }

  @Test func actionsWithoutReferencesKeepTheirPayloadsAcrossManyDistinctTexts() throws {
    let journal = Journal(reducer: Tally(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    var sent: [Tally.Action] = []
    for round in 0..<3 {
      for amount in 0..<20 {
        sent.append(.add(amount))
        sent.append(amount % 7 == 0 ? .reset : .scale(by: round + 1, offset: -amount))
      }
    }
    for action in sent { store.send(action) }
    let imported = try Journal(journalJSON: journal.snapshot().journalJSON(), reducer: Tally())
    #expect(imported.snapshot().entries.map(\.action) == sent)
    #expect(imported.snapshot().state(after: sent.count - 1) == store.state)
  }

  @Test func anEntryWithEscapesOrNonASCIIKeysImportsThroughTheTreeAsBefore() throws {
    let journal = Journal(reducer: Tally(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Tally.State(), reducer: Tally(), middleware: [.tracer(journal)])
    store.send(.add(2), context: "tab \"one\"\n")
    store.send(.add(3))
    var text = String(decoding: journal.snapshot().journalJSON(), as: UTF8.self)
    // The same document with a key written with an escape, which only the tree path reads.
    text = text.replacingOccurrences(of: #"{"add":{"_0":3}}"#, with: #"{"\u0061dd":{"_0":3}}"#)
    #expect(text.contains(#"\u0061dd"#))
    let imported = try Journal(journalJSON: Data(text.utf8), reducer: Tally())
    #expect(imported.snapshot().entries.map(\.action) == [.add(2), .add(3)])
    #expect(imported.snapshot().entries.map(\.context) == ["tab \"one\"\n", nil])
  }
}
