import ChronicleFormats
import ChronicleInspection
import ChronicleLiveLink
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

struct Vault: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    @Redacted var secret = "hunter2-in-state"
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
    case add(Int)
    case setSecret(Redacted<String>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .add(let amount): state.count += amount
    case .setSecret(let secret): state.secret = secret.wrappedValue
    }
    return .none
  }
}

typealias VaultLink = LiveLink<Vault.State, Vault.Action>

/// A traced store with time travel, linked to `inspector`.
private func linkedStore(
  to inspector: FakeInspector, allowed: Set<LiveCommand.Name> = [], maxJournalEntries: Int? = 100_000,
  limits: JournalLiveStream<Vault.State, Vault.Action>.Limits = .init(), events: EventLog? = nil
) -> (Store<Vault.State, Vault.Action>, Journal<Vault.State, Vault.Action>, VaultLink) {
  let journal = Journal(reducer: Vault(), configuration: .init(maxEntries: maxJournalEntries))
  let travel = TimeTravel(journal: journal)
  let store = Store(
    initialState: Vault.State(), reducer: Vault(), middleware: [.timeTravel(travel), .tracer(journal)])
  travel.attach(store)
  var onEvent: (@Sendable (VaultLink.Event) -> Void)?
  if let events { onEvent = { events.append($0) } }
  let configuration = VaultLink.Configuration(
    url: inspector.url, token: inspector.token, name: "vault", allowed: allowed, limits: limits,
    reconnectDelay: .milliseconds(5), maxReconnectDelay: .milliseconds(50), jitter: { 0 })
  let link = VaultLink(
    configuration: configuration, journal: journal, store: store, timeTravel: travel, onEvent: onEvent)
  return (store, journal, link)
}

/// The link's events, for the tests to read.
final class EventLog: Sendable {
  private let events = Mutex<[VaultLink.Event]>([])
  func append(_ event: VaultLink.Event) { events.withLock { $0.append(event) } }
  var all: [VaultLink.Event] { events.withLock { $0 } }
}

/// The entry indices among the inspector's numbered lines, in order, and the entries its gap
/// markers say were dropped.
private func entryIndices(_ inspector: FakeInspector) -> (indices: [Int], gapEntries: Int) {
  var indices: [Int] = []
  var gapEntries = 0
  for object in inspector.numberedObjects() {
    if let entry = object["entry"] as? [String: Any], let index = entry["index"] as? Int {
      indices.append(index)
    }
    if let gap = object["gap"] as? [String: Any] { gapEntries += gap["entries"] as? Int ?? 0 }
  }
  return (indices, gapEntries)
}

@Suite(.serialized) struct LiveLinkTests {
  @Test func theLinkSaysHelloAndStreamsWhatWasRecordedBeforeItConnected() throws {
    let inspector = try FakeInspector()
    defer { inspector.shutDown() }
    let log = EventLog()
    let (store, _, link) = linkedStore(to: inspector, allowed: [.undo], events: log)
    defer { link.close() }
    for _ in 0..<50 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 100 })
    let hello = try #require(inspector.read { $0.hellos.first })
    #expect(hello["protocol"] as? String == "chronicle.live")
    #expect(hello["version"] as? Int == 1)
    #expect(hello["next"] as? Int == 1)
    #expect(hello["allows"] as? [String] == ["undo"])
    let instance = try #require(hello["instance"] as? [String: Any])
    #expect(instance["id"] as? String == link.instance.id)
    #expect(instance["name"] as? String == "vault")
    #expect(instance["pid"] as? Int == Int(ProcessInfo.processInfo.processIdentifier))
    #expect((hello["meta"] as? [String: Any])?["checkpointInterval"] as? Int == 100)
    #expect(entryIndices(inspector).indices == Array(0..<50))
    #expect(log.all.first == .connected(session: "S"))
    // Acknowledged lines are freed.
    #expect(inspector.wait { _ in link.stream.statistics.acknowledged >= 100 })
  }

  @Test func whenTheWelcomeChoosesDeflateEveryLaterMessageIsDeflatedAndSmallerThanItsEntryLines() throws {
    let inspector = try FakeInspector()
    inspector.deflates = true
    defer { inspector.shutDown() }
    let (store, _, link) = linkedStore(to: inspector)
    defer { link.close() }
    for _ in 0..<1_000 { store.send(.add(7)) }
    #expect(inspector.wait { $0.contiguousThrough >= 2_000 })
    let hello = try #require(inspector.read { $0.hellos.first })
    #expect(hello["compress"] as? [String] == ["deflate"])
    #expect(entryIndices(inspector).indices == Array(0..<1_000))
    // Only the hello went as text; the lines inflate to what text messages would carry, and on
    // the wire take less than the entry lines alone.
    let counts: [Int] = inspector.read { [$0.duplicates, $0.holes, $0.textMessages] }
    #expect(counts == [0, 0, 1])
    #expect(inspector.read { $0.binaryMessages } >= 1)
    let entryLineBytes = inspector.read { fake in
      fake.lines.values.filter { $0.hasPrefix(#"{"entry":"#) }.reduce(0) { $0 + $1.utf8.count + 1 }
    }
    #expect(inspector.read { $0.binaryBytes } < entryLineBytes)
  }

  @Test func aLinkThatDoesNotCompressOffersNoCompressionAndSendsText() throws {
    let inspector = try FakeInspector()
    inspector.deflates = true
    defer { inspector.shutDown() }
    let journal = Journal(reducer: Vault())
    let store = Store(initialState: Vault.State(), reducer: Vault(), middleware: [.tracer(journal)])
    let link = VaultLink(
      configuration: .init(url: inspector.url, token: inspector.token, compresses: false), journal: journal,
      store: store)
    defer { link.close() }
    for _ in 0..<10 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 20 })
    #expect(inspector.read { $0.hellos.first?["compress"] } == nil)
    #expect(inspector.read { $0.binaryMessages } == 0)
  }

  @Test func afterADroppedConnectionTheStreamResumesWithNoDuplicateAndNoHole() throws {
    let inspector = try FakeInspector()
    defer { inspector.shutDown() }
    let (store, _, link) = linkedStore(to: inspector)
    defer { link.close() }
    for _ in 0..<200 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 400 })
    // Lines stored but not acknowledged: the welcome says more than the link was told.
    inspector.acknowledges = false
    for _ in 0..<100 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 600 })
    inspector.drop()
    inspector.acknowledges = true
    for _ in 0..<300 { store.send(.add(2)) }
    #expect(inspector.wait { $0.contiguousThrough >= 1_200 })
    #expect(inspector.read { $0.duplicates } == 0)
    #expect(inspector.read { $0.holes } == 0)
    #expect(inspector.read { $0.connections } >= 2)
    #expect(entryIndices(inspector).indices == Array(0..<600))
  }

  @Test func aStalledInspectorNeverBlocksSendAndTheGapIsExact() throws {
    let inspector = try FakeInspector()
    defer { inspector.shutDown() }
    let (store, journal, link) = linkedStore(
      to: inspector, maxJournalEntries: 1_000, limits: .init(maxEntries: 500, maxBytes: 1 << 20))
    defer { link.close() }
    store.send(.increment)
    #expect(inspector.wait { $0.contiguousThrough >= 2 })
    inspector.setReading(false)
    let total = 100_000
    let started = ContinuousClock.now
    for _ in 1..<total { store.send(.increment) }
    let elapsed = ContinuousClock.now - started
    // Bounded by the stream's limits (plus one batch), whatever the inspector does.
    #expect(link.stream.statistics.heldEntries <= 500 + 256)
    #expect(elapsed < .seconds(30))
    inspector.setReading(true)
    #expect(
      inspector.wait(seconds: 60) { $0.entryLines + $0.gapEntries == total })
    let (indices, gapEntries) = entryIndices(inspector)
    #expect(gapEntries > 0)
    #expect(indices.count + gapEntries == total)
    #expect(Set(indices).count == indices.count)
    #expect(link.stream.statistics.droppedEntries == gapEntries)
    #expect(journal.count <= 1_000)
  }

  @Test func commandsAreAnsweredAndOnlyAllowedOnesApplied() throws {
    let inspector = try FakeInspector()
    defer { inspector.shutDown() }
    let (store, journal, link) = linkedStore(to: inspector, allowed: [.dispatch, .jump])
    defer { link.close() }
    for _ in 0..<3 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 6 })
    inspector.send(#"{"command":{"id":1,"name":"undo"}}"#)
    inspector.send(#"{"command":{"id":2,"name":"dispatch","action":{"add":{"_0":"ten"}}}}"#)
    inspector.send(
      #"{"command":{"id":3,"name":"dispatch","action":{"add":{"_0":10}},"context":"inspector"}}"#)
    inspector.send(#"{"command":{"id":4,"name":"jump","position":1}}"#)
    #expect(inspector.wait { $0.results.count >= 4 })
    let results = inspector.read { $0.results }
    #expect(results.map { $0["id"] as? Int } == [1, 2, 3, 4])
    #expect((results[0]["error"] as? [String: Any])?["kind"] as? String == "notAllowed")
    let undecodable = try #require(results[1]["error"] as? [String: Any])
    #expect(undecodable["kind"] as? String == "undecodable")
    #expect((undecodable["message"] as? String)?.contains("command.action.add._0") == true)
    #expect(results[2]["ok"] as? Bool == true)
    #expect(results[3]["ok"] as? Bool == true)
    #expect(results[3]["position"] as? Int == 1)
    #expect(store.state.count == 1)
    #expect(journal.snapshot().entries.last?.cause.kind == .inspector)
    #expect(journal.count == 4)
    // A status follows every result.
    #expect(inspector.wait { $0.statuses.count >= 5 })
    #expect(inspector.read { $0.statuses.last?["position"] as? Int } == 1)
  }

  @Test func aSecretInStateAndActionIsInNoFrame() throws {
    let inspector = try FakeInspector()
    defer { inspector.shutDown() }
    let (store, _, link) = linkedStore(to: inspector)
    defer { link.close() }
    store.send(.setSecret(Redacted("hunter2-in-action")))
    for _ in 0..<120 { store.send(.increment) }
    #expect(inspector.wait { $0.contiguousThrough >= 242 })
    let everything = inspector.read { $0.messages.joined(separator: "\n") }
    #expect(everything.contains("<redacted>"))
    #expect(!everything.contains("hunter2"))
  }
}
