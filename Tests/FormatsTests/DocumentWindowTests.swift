import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// A document's bytes handed out `upTo` bytes at a time, as a file is read.
private final class ArrayBlocks: BlockSource {
  private let bytes: [UInt8]
  private var offset = 0
  private(set) var largestRead = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func read(upTo count: Int) throws(JournalImportError) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    defer { offset = end }
    largestRead = max(largestRead, end - offset)
    return Array(bytes[offset..<end])
  }
}

/// What importing `bytes` gives: the entries' sequence numbers and actions, or the error.
private func outcome(_ bytes: [UInt8], blockSize: Int?) -> Result<[String], JournalImportError> {
  let limits = JournalImportLimits.default
  let configuration = CounterJournal.Configuration(maxEntries: nil, maxBytes: nil)
  do throws(JournalImportError) {
    let content =
      if let blockSize {
        try CounterJournal.importJournalJSON(
          DocumentWindow(ArrayBlocks(bytes), blockSize: blockSize, limit: limits.maxBytes),
          configuration: configuration, limits: limits, addingEntries: .specialized)
      } else {
        try CounterJournal.importJournalJSON(
          Data(bytes), configuration: configuration, limits: limits,
          addingEntries: .specialized)
      }
    let journal = CounterJournal(content: content, configuration: configuration) {
      Counter().reduce(into: &$0, action: $1)
    }
    return .success(journal.snapshot().entries.map { "\($0.sequence) \($0.action) \($0.cause)" })
  } catch {
    return .failure(error)
  }
}

@Suite struct DocumentWindowTests {
  @Test func aDocumentReadInBlocksImportsAsFromMemory() async throws {
    let (journal, _) = await recordedRun()
    let bytes = Array(journal.snapshot().journalJSON())
    let whole = outcome(bytes, blockSize: nil)
    #expect(try whole.get().count == journal.count)
    for blockSize in [1, 2, 3, 7, 64, 1 << 20] {
      #expect(outcome(bytes, blockSize: blockSize) == whole, "block size \(blockSize)")
    }
  }

  @Test func aTruncatedDocumentReadInBlocksFailsAsFromMemory() async throws {
    let (journal, _) = await recordedRun()
    let bytes = Array(journal.snapshot().journalJSON())
    for length in stride(from: 0, to: bytes.count, by: 23) {
      let truncated = Array(bytes[..<length])
      let whole = outcome(truncated, blockSize: nil)
      #expect(throws: JournalImportError.self) { try whole.get() }
      for blockSize in [1, 5, 64] {
        #expect(
          outcome(truncated, blockSize: blockSize) == whole, "length \(length), block size \(blockSize)")
      }
    }
  }

  @Test func aCorruptDocumentReadInBlocksFailsAsFromMemory() async throws {
    let (journal, _) = await recordedRun()
    let bytes = Array(journal.snapshot().journalJSON())
    for position in stride(from: 0, to: bytes.count, by: 29) {
      for replacement: UInt8 in [UInt8(ascii: "}"), UInt8(ascii: "\""), 0xFF, UInt8(ascii: "7")] {
        var corrupt = bytes
        corrupt[position] = replacement
        let whole = outcome(corrupt, blockSize: nil)
        for blockSize in [3, 64] {
          #expect(
            outcome(corrupt, blockSize: blockSize) == whole, "byte \(position), block size \(blockSize)")
        }
      }
    }
  }

  @Test func dataAfterTheDocumentInALaterBlockIsRefused() async throws {
    let (journal, _) = await recordedRun()
    let bytes = Array(journal.snapshot().journalJSON()) + Array("   x".utf8)
    guard case .failure(.malformed(_, _, let offset, _)) = outcome(bytes, blockSize: 4) else {
      Issue.record("expected malformed")
      return
    }
    #expect(offset == bytes.count - 1)
    #expect(outcome(bytes, blockSize: 4) == outcome(bytes, blockSize: nil))
  }

  @Test func theWindowHoldsABlockAndTheValueBeingReadNotTheWholeFile() throws {
    let journal = CounterJournal(reducer: Counter(), configuration: .init(maxEntries: nil, maxBytes: nil))
    let store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
    for _ in 0..<2_000 { store.send(.increment) }
    let bytes = Array(journal.snapshot().journalJSON())
    let source = ArrayBlocks(bytes)
    let window = DocumentWindow(source, blockSize: 512, limit: .max)
    let content = try CounterJournal.importJournalJSON(
      window, configuration: .init(maxEntries: nil, maxBytes: nil), limits: .default,
      addingEntries: .specialized)
    #expect(content.entries.count == 2_000)
    #expect(bytes.count > 100_000)
    #expect(window.bytes.count < 2 * 512)
    #expect(source.largestRead == 512)
  }

  @Test func aFileLargerThanTheLimitIsRefusedAsItIsRead() throws {
    let window = DocumentWindow(
      ArrayBlocks(Array(repeating: UInt8(ascii: " "), count: 100)), blockSize: 8, limit: 50)
    #expect(throws: JournalImportError.tooLarge(entry: nil, field: "(document)", limit: 50)) {
      try CounterJournal.importJournalJSON(
        window, configuration: .init(maxEntries: nil, maxBytes: nil), limits: .default,
        addingEntries: .specialized)
    }
  }
}
