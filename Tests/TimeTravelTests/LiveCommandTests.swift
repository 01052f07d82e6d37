import ChronicleFormats
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Testing

/// The controls of a `TimeTravel` as a live link reaches them.
private func controls(_ travel: TimeTravel<Tally.State, Tally.Action>) -> LiveTimeTravel {
  LiveTimeTravel(
    position: { travel.isInPast ? travel.position : nil }, jump: { travel.jump(to: $0) },
    undo: { travel.undo() }, redo: { travel.redo() }, returnToPresent: { travel.returnToPresent() },
    toggleSkip: { travel.toggleSkip($0) }, commit: { travel.commit() }, reset: { travel.reset() })
}

private func command(_ text: String) throws -> LiveCommand {
  let parsed = try LiveProtocol.parse(Array(text.utf8))
  guard case .command(let command) = parsed else {
    Issue.record("not a command: \(parsed)")
    throw LiveProtocolError.unknownMessage(text)
  }
  return command
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Commands of a live link applied to a store, its journal and its time travel.
@Suite struct LiveCommandTests {
  private func travellingHandler(
    allowed: Set<LiveCommand.Name>
  ) -> (
    TallyStore, TallyJournal, LiveCommandHandler<Tally.State, Tally.Action>
  ) {
    let (store, journal, travel) = makeTravellingStore()
    for amount in [1, 2, 3] { store.send(.add(amount)) }
    let handler = LiveCommandHandler(
      journal: journal, store: store, timeTravel: controls(travel), allowed: allowed)
    return (store, journal, handler)
  }

  @Test func aJumpMovesTheStoreAndAnswersItsPosition() throws {
    let (store, _, handler) = travellingHandler(allowed: [.jump, .returnToPresent])
    let result = handler.handle(try command(#"{"command":{"id":7,"name":"jump","position":1}}"#))
    #expect(result == LiveCommand.Result(id: 7, outcome: .applied(position: 1)))
    #expect(store.state == Tally.State(count: 1, log: [1]))
    #expect(text(LiveProtocol.result(result)) == #"{"result":{"id":7,"ok":true,"position":1}}"# + "\n")
    let back = handler.handle(try command(#"{"command":{"id":8,"name":"returnToPresent"}}"#))
    #expect(back == LiveCommand.Result(id: 8, outcome: .applied(position: nil)))
    #expect(store.state.count == 6)
  }

  @Test func aCommandNotAllowedChangesNothing() throws {
    let (store, journal, handler) = travellingHandler(allowed: [])
    let result = handler.handle(try command(#"{"command":{"id":1,"name":"undo"}}"#))
    #expect(result.outcome == .refused(.notAllowed, message: "the app does not allow undo"))
    #expect(store.state.count == 6)
    #expect(journal.count == 3)
    #expect(
      text(LiveProtocol.result(result))
        == #"{"result":{"id":1,"error":{"kind":"notAllowed","message":"the app does not allow undo"}}}"#
        + "\n")
  }

  @Test func aReadOnlyHandlerAllowsNothing() {
    let (_, journal, _) = makeTravellingStore()
    #expect(LiveCommandHandler(journal: journal).allows.isEmpty)
  }

  @Test func aDispatchedActionIsSentWithTheInspectorCause() throws {
    let (store, journal, handler) = travellingHandler(allowed: [.dispatch])
    let result = handler.handle(
      try command(#"{"command":{"id":2,"name":"dispatch","action":{"add":{"_0":10}},"context":"inspector"}}"#)
    )
    #expect(result == LiveCommand.Result(id: 2, outcome: .applied(position: nil)))
    #expect(store.state.count == 16)
    let entry = journal.snapshot().entries.last
    #expect(entry?.cause.kind == .inspector)
    #expect(entry?.context == "inspector")
  }

  @Test func anUndecodableActionIsRefusedWithItsFieldAndNothingIsSent() throws {
    let (store, journal, handler) = travellingHandler(allowed: [.dispatch])
    let result = handler.handle(
      try command(#"{"command":{"id":3,"name":"dispatch","action":{"add":{"_0":"ten"}}}}"#))
    guard case .refused(.undecodable, let message) = result.outcome else {
      Issue.record("not refused: \(result)")
      return
    }
    #expect(message.contains("command.action.add._0"))
    #expect(store.state.count == 6)
    #expect(journal.count == 3)
  }

  @Test func pauseAndResumeReachTheJournal() throws {
    let (_, journal, handler) = travellingHandler(allowed: [.pause, .resume])
    _ = handler.handle(try command(#"{"command":{"id":4,"name":"pause"}}"#))
    #expect(journal.isPaused)
    #expect(text(handler.statusLine()) == #"{"status":{"paused":true,"position":null,"count":3}}"# + "\n")
    _ = handler.handle(try command(#"{"command":{"id":5,"name":"resume"}}"#))
    #expect(!journal.isPaused)
  }

  @Test func skippingAnIndexThatIsNoEntryIsInvalid() throws {
    let (store, _, handler) = travellingHandler(allowed: [.skip])
    let result = handler.handle(try command(#"{"command":{"id":6,"name":"skip","index":99}}"#))
    #expect(result.outcome == .refused(.invalid, message: "no entry at index 99"))
    #expect(store.state.count == 6)
    _ = handler.handle(try command(#"{"command":{"id":7,"name":"skip","index":1}}"#))
    #expect(store.state.count == 4)
  }

  @Test func timeTravelCommandsWithoutTimeTravelAreUnavailable() throws {
    let (_, journal, _) = makeTravellingStore()
    let handler = LiveCommandHandler(journal: journal, allowed: [.jump])
    #expect(handler.allows.isEmpty)
    let result = handler.handle(try command(#"{"command":{"id":9,"name":"jump","position":0}}"#))
    #expect(result.outcome == .refused(.unavailable, message: "jump needs time travel"))
  }

  @Test func aCommandWithAnUnknownNameIsAnsweredAsInvalid() throws {
    let parsed = try LiveProtocol.parse(Array(#"{"command":{"id":4,"name":"explode"}}"#.utf8))
    #expect(parsed == .invalidCommand(id: 4, message: #"command.name: unknown command "explode""#))
  }

  @Test func welcomeAndAckAreParsed() throws {
    #expect(
      try LiveProtocol.parse(
        Array(#"{"welcome":{"protocol":"chronicle.live","version":1,"session":"S1","resumeAfter":12}}"#.utf8))
        == .welcome(session: "S1", resumeAfter: 12))
    #expect(try LiveProtocol.parse(Array(#"{"ack":{"n":40}}"#.utf8)) == .ack(40))
  }

  @Test func aWelcomeThatChoosesDeflateSaysSo() throws {
    #expect(
      try LiveProtocol.parse(
        Array(
          #"{"welcome":{"protocol":"chronicle.live","version":1,"session":"S1","resumeAfter":0,"compress":"deflate"}}"#
            .utf8))
        == .welcome(session: "S1", resumeAfter: 0, compression: "deflate"))
  }

  @Test func aWelcomeThatChoosesACompressionNotOfferedIsRefused() {
    #expect(
      throws: LiveProtocolError.malformed(
        .invalidValue(entry: nil, field: "welcome.compress", reason: "a compression the hello did not offer"))
    ) {
      try LiveProtocol.parse(
        Array(
          #"{"welcome":{"protocol":"chronicle.live","version":1,"session":"S","resumeAfter":0,"compress":"zstd"}}"#
            .utf8))
    }
  }

  @Test func aHelloThatOffersCompressionListsIt() {
    let hello = LiveProtocol.hello(
      instance: .init(id: "I1", name: "Tally", host: "h", pid: 42, store: "main"), meta: "{}", allows: [],
      next: 1, compress: [LiveProtocol.deflate])
    #expect(text(hello).hasSuffix(#""allows":[],"next":1,"compress":["deflate"]}}"# + "\n"))
  }

  @Test func aLineThatIsNotJSONNamesItsOffset() {
    #expect(
      throws: LiveProtocolError.malformed(
        .malformed(entry: nil, field: "ack", byteOffset: 7, reason: "unexpected '}'"))
    ) {
      try LiveProtocol.parse(Array(#"{"ack":}"#.utf8))
    }
  }

  @Test func anUnknownMessageOrProtocolIsRefused() {
    #expect(throws: LiveProtocolError.unknownMessage("hug")) {
      try LiveProtocol.parse(Array(#"{"hug":{}}"#.utf8))
    }
    #expect(throws: LiveProtocolError.unsupportedProtocol(name: "chronicle.live", version: 2)) {
      try LiveProtocol.parse(
        Array(#"{"welcome":{"protocol":"chronicle.live","version":2,"session":"S","resumeAfter":0}}"#.utf8))
    }
  }

  @Test func theHelloNamesTheInstanceTheMetaTheCommandsAndTheNextNumber() {
    let hello = LiveProtocol.hello(
      instance: .init(id: "I1", name: "Tally", host: "h", pid: 42, store: "main"), meta: #"{"m":1}"#,
      allows: [.undo, .dispatch], next: 5)
    #expect(
      text(hello)
        == #"{"hello":{"protocol":"chronicle.live","version":1,"instance":{"id":"I1","name":"Tally","host":"h","pid":42,"store":"main"},"meta":{"m":1},"allows":["undo","dispatch"],"next":5}}"#
        + "\n")
  }
}
