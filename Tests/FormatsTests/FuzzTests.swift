import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// SplitMix64: a small seeded generator, so every run feeds the same inputs (these tests and
/// `JournalJSONWritableTests`).
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The counter's logic with wrapping arithmetic: mutated files can hold any number, and an
/// overflow in the reducer would be the reducer's crash, not the importer's.
private struct WrappingCounter: Reducer {
  func reduce(into state: inout Counter.State, action: Counter.Action) -> Effect<Counter.Action> {
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    case .add(let amount): state.count &+= amount
    case .note(let text): state.log.append(text)
    case .chain: state.count &+= 1
    case .loaded(let value): state.count = value
    case .load, .fail: break
    }
    return .none
  }
}

@Suite struct FuzzTests {
  /// Small files of each importable format, from one recorded run.
  private func corpus() async throws -> [(name: String, bytes: [UInt8])] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-fuzz-\(UUID()).ndjson")
    defer { try? FileManager.default.removeItem(at: url) }
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: url)
    let (store, journal) = makeTracedStore(.init(checkpointInterval: 2, sinks: [sink]))
    store.send(.add(7), context: "Fuzz")
    store.send(.note("é"))
    store.send(.load)
    await store.waitUntilIdle()
    let snapshot = journal.snapshot()
    return [
      ("journal", Array(snapshot.journalJSON())),
      ("ndjson", Array(try Data(contentsOf: url))),
      ("redux", Array(snapshot.reduxDevTools(.liftedState))),
      ("redux custom", Array(snapshot.reduxDevTools(.custom))),
    ]
  }

  private func mutate(_ input: [UInt8], with generator: inout SeededGenerator) -> [UInt8] {
    var bytes = input
    let interesting: [UInt8] =
      Array(#"{}[],:"\-0123456789eE.tfn "#.utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      guard !bytes.isEmpty else { break }
      let position = Int.random(in: 0..<bytes.count, using: &generator)
      switch Int.random(in: 0..<6, using: &generator) {
      case 0:  // truncate
        bytes.removeSubrange(position...)
      case 1:  // flip bits
        bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
      case 2:  // delete a run
        bytes.removeSubrange(
          position..<min(bytes.count, position + Int.random(in: 1...16, using: &generator)))
      case 3:  // duplicate a run
        let run = bytes[position..<min(bytes.count, position + Int.random(in: 1...24, using: &generator))]
        bytes.insert(contentsOf: run, at: Int.random(in: 0...bytes.count, using: &generator))
      case 4:  // overwrite with a byte that matters to JSON or UTF-8
        bytes[position] = interesting[Int.random(in: 0..<interesting.count, using: &generator)]
      default:  // insert one
        bytes.insert(interesting[Int.random(in: 0..<interesting.count, using: &generator)], at: position)
      }
    }
    return bytes
  }

  /// Imports `bytes` as the named format: a journal, or the typed error.
  private func load(
    _ name: String, _ bytes: [UInt8]
  ) -> Result<Journal<Counter.State, Counter.Action>, JournalImportError> {
    let data = Data(bytes)
    do throws(JournalImportError) {
      switch name {
      case "journal": return .success(try CounterJournal(journalJSON: data, reducer: WrappingCounter()))
      case "ndjson": return .success(try CounterJournal.loadNDJSON(data, reducer: WrappingCounter()).journal)
      default: return .success(try CounterJournal(reduxDevTools: data, reducer: WrappingCounter()))
      }
    } catch {
      return .failure(error)
    }
  }

  @Test func mutatedFilesGiveAJournalOrATypedErrorNeverACrash() async throws {
    let corpus = try await corpus()
    var generator = SeededGenerator(state: 0xC0FFEE)
    var journals = 0
    var errors = 0
    for iteration in 0..<10_400 {
      let (name, original) = corpus[iteration % corpus.count]
      let bytes = mutate(original, with: &generator)
      switch load(name, bytes) {
      case .success(let journal):
        journals += 1
        // A journal that loads is whole: every state replays, and it exports and imports again.
        let snapshot = journal.snapshot()
        #expect(snapshot.entries.map(\.sequence) == snapshot.entries.map(\.sequence).sorted())
        for index in snapshot.indices { #expect(snapshot.state(after: index) != nil) }
        if !snapshot.isEmpty {
          let again = try CounterJournal(journalJSON: snapshot.journalJSON(), reducer: WrappingCounter())
          #expect(again.indices == snapshot.indices)
        }
      case .failure(let error):
        errors += 1
        #expect(!error.description.isEmpty)
        #expect(error.field != nil)
      }
    }
    #expect(journals + errors == 10_400)
    #expect(journals > 0 && errors > 0)
  }

  /// The edges of every integer and time field, and numbers no field holds.
  private static let boundaries = [
    "0", "-1", "1", "-0", "2147483647", "2147483648", "4294967295", "4294967296",
    "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993",
    "4611686018427387903", "4611686018427387904", "-4611686018427387903", "-4611686018427387904",
    "9223372036854775806", "9223372036854775807", "9223372036854775808",
    "-9223372036854775807", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "1e308", "1e400", "-1e400", "1.5", "1E+2",
  ]

  /// The byte ranges of the numbers in a JSON text (outside strings).
  private func numberRanges(in bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var position = 0
    var inString = false
    while position < bytes.count {
      let byte = bytes[position]
      if inString {
        if byte == UInt8(ascii: "\\") {
          position += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        position += 1
        continue
      }
      if byte == UInt8(ascii: "\"") {
        inString = true
        position += 1
      } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
        let start = position
        while position < bytes.count, Array("-+.eE0123456789".utf8).contains(bytes[position]) {
          position += 1
        }
        ranges.append(start..<position)
      } else {
        position += 1
      }
    }
    return ranges
  }

  /// Every export of an imported journal, and the Journal JSON imported again: none may trap.
  private func exportEverything(_ journal: Journal<Counter.State, Counter.Action>) throws {
    let snapshot = journal.snapshot()
    _ = snapshot.chromeTrace()
    _ = snapshot.reduxDevTools(.custom)
    _ = snapshot.reduxDevTools(.liftedState)
    _ = snapshot.htmlViewer()
    journal.commit(through: .max)
    let again = try CounterJournal(journalJSON: snapshot.journalJSON(), reducer: WrappingCounter())
    #expect(again.indices == snapshot.indices)
  }

  /// Every view and export of a document: none may trap.
  private func exportEverything(_ document: JournalFile) throws {
    _ = document.chromeTrace()
    _ = document.reduxDevTools()
    _ = document.ndjson()
    _ = JournalViewer.html(for: document)
    for position in document.entries.indices {
      _ = document.stateText(after: position)
      _ = document.stateChanges(from: 0, to: position)
    }
    let again = try JournalFile(data: document.journalJSON())
    #expect(again.entries == document.entries)
  }

  @Test func boundaryNumbersInEveryFieldGiveAJournalOrATypedErrorNeverACrash() async throws {
    var loaded = (journals: 0, documents: 0)
    var refused = (journals: 0, documents: 0)
    for (name, original) in try await corpus() {
      for range in numberRanges(in: original) {
        for boundary in Self.boundaries {
          var bytes = original
          bytes.replaceSubrange(range, with: Array(boundary.utf8))
          switch load(name, bytes) {
          case .success(let journal):
            loaded.journals += 1
            try exportEverything(journal)
          case .failure(let error):
            refused.journals += 1
            #expect(error.field != nil)
          }
          guard name == "journal" || name == "ndjson" else { continue }
          let document: JournalFile
          do throws(JournalImportError) {
            document = try JournalFile(data: Data(bytes))
          } catch {
            refused.documents += 1
            #expect(error.field != nil)
            continue
          }
          loaded.documents += 1
          try exportEverything(document)
        }
      }
    }
    #expect(loaded.journals > 0 && refused.journals > 0)
    #expect(loaded.documents > 0 && refused.documents > 0)
  }
}
