import ChronicleMiddleware
import ChronicleStore
import ChronicleTestSupport
import Foundation
import Testing
import TracerFixtures

@testable import ChronicleFormats
@testable import ChronicleTracer

/// An id a library attaches beside the user's, as the timer middleware's group of all timers is.
private struct LibraryGroup: ImplicitEffectID {}

@Suite struct EffectIDExportTests {
  /// A store whose middleware starts, after each `.increment`, an effect cancellable with the
  /// user's id `"search"` and with `LibraryGroup`; the journal streams to `ndjson`.
  private func record(streamingTo ndjson: URL) async throws -> JournalSnapshot<Counter.State, Counter.Action>
  {
    let sink = try NDJSONFileSink<Counter.State, Counter.Action>(url: ndjson)
    let starter = AnyMiddleware<Counter.State, Counter.Action>(name: "starter") { action, context, next in
      next(action)
      if action == .increment {
        context.run(
          Effect<Counter.Action>.run { _ in }.cancellable(id: "search").cancellable(id: LibraryGroup()),
          as: .timer, label: "debounce search")
      }
    }
    let (store, journal) = makeTracedStore(.init(sinks: [sink]), middleware: [starter])
    store.send(.increment)
    await store.waitUntilIdle()
    sink.close()
    return journal.snapshot()
  }

  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-\(UUID()).ndjson")
  }

  @Test func theJournalKeepsOnlyTheIDsTheUserGave() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let snapshot = try await record(streamingTo: url)
    #expect(snapshot.effectEvents.map(\.phase) == [.started, .finished])
    #expect(snapshot.effectEvents.map(\.ids) == [["search"], ["search"]])
  }

  @Test func journalJSONEffectEventsShowTheUsersID() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let text = String(decoding: try await record(streamingTo: url).journalJSON(), as: UTF8.self)
    #expect(text.contains(#""ids":["search"]"#))
    #expect(!text.contains("LibraryGroup"))
  }

  @Test func ndjsonEffectEventsShowTheUsersID() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    _ = try await record(streamingTo: url)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(#""ids":["search"]"#))
    #expect(!text.contains("LibraryGroup"))
  }

  @Test func chromeTraceEffectSpansShowTheUsersID() async throws {
    let url = temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let text = String(decoding: try await record(streamingTo: url).chromeTrace(), as: UTF8.self)
    #expect(text.contains(#""ids":["search"]"#))
    #expect(!text.contains("LibraryGroup"))
  }
}
