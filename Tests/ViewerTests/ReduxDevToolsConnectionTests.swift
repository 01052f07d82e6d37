import ChronicleInspection
import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A sign-in form whose password must never reach the extension, and whose submit starts an
/// effect that answers: its `.signedIn` is caused by that effect.
private struct SignIn: Reducer {
  struct State: Equatable, Sendable, Codable {
    var user = ""
    @Redacted var password = ""
    var attempts = 0
    var token: Int?
  }

  enum Action: Equatable, Sendable, Codable {
    case user(String)
    case password(Redacted<String>)
    case submit
    case signedIn(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .user(let name): state.user = name
    case .password(let secret): state.password = secret.wrappedValue
    case .submit:
      state.attempts += 1
      return .run { send in await send(.signedIn(7)) }.cancellable(id: "submit")
    case .signedIn(let token): state.token = token
    }
    return .none
  }
}

/// A recorded sign-in: four actions, the last one sent by the submit's effect.
private func signInSession() async -> JournalSnapshot<SignIn.State, SignIn.Action> {
  let journal = Journal<SignIn.State, SignIn.Action>(reducer: SignIn())
  let store = Store(initialState: SignIn.State(), reducer: SignIn(), middleware: [.tracer(journal)])
  store.send(.user("ada"), context: "SignIn")
  store.send(.password(Redacted("hunter2")), context: "SignIn")
  store.send(.submit, context: "SignIn")
  await store.waitUntilIdle()
  return journal.snapshot()
}

/// A counter whose actions are not `Encodable`: journals write them by their description.
private struct Opaque: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Sendable { case add(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.count += amount
    }
    return .none
  }
}

/// Whether the page sent the base state, actions and states that the lifted-state export
/// `lifted` holds.
private func sentWhatTheExportHolds(_ run: DevToolsRun, _ lifted: Data) throws -> Bool {
  let export = try JSONParser.parse(Array(lifted), limits: JournalImportLimits.ownExport.parser)
  let initCall = try #require(run.calls.first { $0[0] == "init" })
  var same = try json(initCall[1]) == export["committedState"]
  for (offset, sent) in run.sends.enumerated() {
    same = try same && json(sent[0]) == export["actionsById"]?[String(offset + 1)]?["action"]
    same = try same && json(sent[1]) == export["computedStates"]?.arrayValue?[offset + 1]["state"]
  }
  return same && export["stagedActionIds"]?.arrayValue?.count == run.sends.count + 1
}

/// A stand-in for the extension's `window.__REDUX_DEVTOOLS_EXTENSION__`, with `connect`'s
/// response as extension/src/pageScript/api/index.ts (`connect`) returns it: `init`, `send`,
/// `subscribe`, `unsubscribe`, `error`. It records every call with its arguments as JSON text;
/// after the `sends`-th `send` it hands each of `messages` to the subscribed listener, as the
/// extension's content script posts a monitor's `DISPATCH` (extension/src/contentScript/index.ts),
/// then puts the record in the page as `<script type="application/json" id="devtools-calls">`.
private func extensionStub(sends: Int, messages: [String]) -> String {
  """
  <script>
  "use strict";
  (() => {
    const calls = [];
    let listener = null, sent = 0;
    const record = (name, ...values) => calls.push([name, ...values.map((value) => JSON.stringify(value))]);
    function finish() {
      for (const message of [\(messages.joined(separator: ", "))]) if (listener) listener(message);
      const log = document.createElement("script");
      log.type = "application/json";
      log.id = "devtools-calls";
      log.textContent = JSON.stringify(calls).replace(/</g, "\\\\u003c");
      document.body.appendChild(log);
    }
    window.__REDUX_DEVTOOLS_EXTENSION__ = Object.assign(() => {}, {
      connect(options) {
        record("connect", options);
        return {
          init(state) { record("init", state); },
          send(action, state) {
            record("send", action, state);
            if (++sent === \(sends)) setTimeout(finish, 0);
          },
          subscribe(next) { record("subscribe"); listener = next; return () => {}; },
          unsubscribe() {},
          error() {},
        };
      },
    });
    if (\(sends) === 0) window.addEventListener("load", () => setTimeout(finish, 0));
  })();
  </script>
  """
}

/// A monitor's jump as the page's listener receives it: `payload` the monitor's action
/// (packages/redux-devtools-app-core/src/actions/index.ts, `JumpToStateAction` and
/// `JumpToActionAction`), `state` the state there as JSON text
/// (packages/redux-devtools-app/src/utils/monitorActions.ts, `nonReduxDispatch`).
private func jump(_ payload: String) -> String {
  #"{type: "DISPATCH", payload: \#(payload), state: "{}", id: "1", source: "@devtools-extension"}"#
}

/// What the page did with the stand-in extension: its calls and its DOM.
private struct DevToolsRun: Sendable {
  /// Each call: its name, then its arguments as JSON text.
  var calls: [[String]]
  var dom: String

  /// The `send` calls' arguments: the action and the state, as JSON text.
  var sends: [[String]] { calls.filter { $0.first == "send" }.map { Array($0.dropFirst()) } }
}

/// Opens `html` in headless Chromium with the stand-in extension injected before the page's
/// script, which then expects `sends` actions and delivers `messages`.
private func openWithExtension(
  _ name: String, _ html: Data, sends: Int, messages: [String] = []
) throws -> DevToolsRun {
  var page = String(decoding: html, as: UTF8.self)
  let head = try #require(page.range(of: "<head>"))
  page.insert(contentsOf: extensionStub(sends: sends, messages: messages), at: head.upperBound)
  let dom = try dump(try artifact(name, Data(page.utf8)), "")
  let start = try #require(dom.range(of: #"<script type="application/json" id="devtools-calls">"#))
  let end = try #require(dom[start.upperBound...].range(of: "</script>"))
  let calls = try JSONDecoder().decode(
    [[String]].self, from: Data(dom[start.upperBound..<end.lowerBound].utf8))
  return DevToolsRun(calls: calls, dom: dom)
}

/// The sign-in session's viewer page opened with the extension, with `messages` from a monitor.
private func signInWithExtension(_ name: String, messages: [String] = []) async throws -> DevToolsRun {
  let html = await signInSession().htmlViewer(title: "Sign-in session")
  return try openWithExtension(name, html, sends: 4, messages: messages)
}

private func json(_ text: String) throws -> JSONValue {
  try JSONParser.parse(Array(text.utf8), limits: JournalImportLimits.ownExport.parser)
}

/// `value` as JSON text with sorted keys, comparable whatever the order of its members.
private func sortedJSON(_ value: Any?) throws -> String {
  let data = try JSONSerialization.data(
    withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
  return String(decoding: data, as: UTF8.self)
}

@Suite(.enabled(if: chromium != nil, "\(noChromium)"))
struct ReduxDevToolsConnectionTests {
  @Test func theViewerConnectsAsAnInstanceThatJumpsImportsAndExports() async throws {
    let run = try await signInWithExtension("devtools-connect.html")
    #expect(
      run.calls.first == [
        "connect",
        #"{"name":"Sign-in session","features":{"jump":true,"import":true,"export":true},"actionsDenylist":"(?!)"}"#,
      ])
    #expect(run.calls.map { $0[0] } == ["connect", "subscribe", "init", "send", "send", "send", "send"])
  }

  @Test func theExtensionGetsTheBaseStateThenEachActionWithTheStateRecordedAfterIt() async throws {
    let run = try await signInWithExtension("devtools-states.html")
    #expect(
      run.calls.first { $0[0] == "init" } == ["init", #"{"user":"","password":"<redacted>","attempts":0}"#])
    #expect(
      run.sends == [
        [
          #"{"type":"user","payload":{"user":{"_0":"ada"}},"meta":{"seq":1,"index":0,"context":"SignIn","cause":{"kind":"user"},"replayable":true,"outcome":"reduced","site":{"fileID":"ViewerTests/ReduxDevToolsConnectionTests.swift","line":44,"function":"signInSession()"}}}"#,
          #"{"user":"ada","password":"<redacted>","attempts":0}"#,
        ],
        [
          #"{"type":"password","payload":{"password":{"_0":"<redacted>"}},"meta":{"seq":2,"index":1,"context":"SignIn","cause":{"kind":"user"},"replayable":true,"outcome":"reduced","site":{"fileID":"ViewerTests/ReduxDevToolsConnectionTests.swift","line":45,"function":"signInSession()"}}}"#,
          #"{"user":"ada","password":"<redacted>","attempts":0}"#,
        ],
        [
          #"{"type":"submit","payload":{"submit":{}},"meta":{"seq":3,"index":2,"context":"SignIn","cause":{"kind":"user"},"replayable":true,"outcome":"reduced","site":{"fileID":"ViewerTests/ReduxDevToolsConnectionTests.swift","line":46,"function":"signInSession()"}}}"#,
          #"{"user":"ada","password":"<redacted>","attempts":1}"#,
        ],
        [
          #"{"type":"signedIn","payload":{"signedIn":{"_0":7}},"meta":{"seq":4,"index":3,"context":"SignIn","cause":{"kind":"effect","parent":3,"effect":1,"label":"submit"},"replayable":true,"outcome":"reduced","site":{"fileID":"ViewerTests/ReduxDevToolsConnectionTests.swift","line":33,"function":"reduce(into:action:)"},"effectSite":{"fileID":"ViewerTests/ReduxDevToolsConnectionTests.swift","line":33,"function":"reduce(into:action:)"}}}"#,
          #"{"user":"ada","password":"<redacted>","attempts":1,"token":7}"#,
        ],
      ])
  }

  @Test func theViewerSendsTheActionsAndStatesOfTheLiftedStateExport() async throws {
    let snapshot = await signInSession()
    let run = try openWithExtension(
      "devtools-lifted.html", snapshot.htmlViewer(title: "Sign-in session"), sends: 4)
    #expect(try sentWhatTheExportHolds(run, snapshot.reduxDevTools(.liftedState)))
  }

  @Test func aFilesViewerSendsTheActionsAndStatesOfTheLiftedStateExport() async throws {
    let snapshot = await signInSession()
    let document = try JournalFile(data: snapshot.journalJSON(options: ExportOptions(states: .everyEntry)))
    let run = try openWithExtension(
      "devtools-file.html", Data(JournalViewer.html(for: document).utf8), sends: 4)
    #expect(try sentWhatTheExportHolds(run, snapshot.reduxDevTools(.liftedState)))
  }

  @Test func actionsWrittenByTheirDescriptionAreSentAsTheExportWritesThem() throws {
    let journal = Journal<Opaque.State, Opaque.Action>(reducer: Opaque())
    let store = Store(initialState: Opaque.State(), reducer: Opaque(), middleware: [.tracer(journal)])
    store.send(.add(2))
    let snapshot = journal.snapshot()
    let run = try openWithExtension("devtools-opaque.html", snapshot.htmlViewer(), sends: 1)
    #expect(run.sends.first?.first?.contains(#""replayable":false"#) == true)
    #expect(try sentWhatTheExportHolds(run, snapshot.reduxDevTools(.liftedState)))
  }

  @Test func theExtensionShowsEveryActionWithTheStateRecordedAfterIt() async throws {
    let snapshot = await signInSession()
    let run = try openWithExtension(
      "devtools-shown.html", snapshot.htmlViewer(title: "Sign-in session"), sends: 4)
    let shown = ReduxDevToolsExtension.shown(try ReduxDevToolsExtension.afterConnect(run.calls))
    #expect(shown.map(\.type) == ["@@INIT", "user", "password", "submit", "signedIn"])
    let lifted = try ReduxDevToolsExtension.intoInstanceImporting(snapshot.reduxDevTools(.liftedState))
    let recorded = (lifted["computedStates"] as? [[String: Any]] ?? []).map { $0["state"] }
    #expect(try sortedJSON(shown.map(\.state)) == sortedJSON(recorded))
    #expect(
      try sortedJSON(shown.last?.state)
        == #"{"attempts":1,"password":"<redacted>","token":7,"user":"ada"}"#)
  }

  @Test func theExtensionsExportOfThePagesInstanceReadsBackWithTheRecordedStates() async throws {
    let run = try await signInWithExtension("devtools-export.html")
    let exported = try ReduxDevToolsExtension.export(try ReduxDevToolsExtension.afterConnect(run.calls))
    let document = try JournalFile(data: exported)
    #expect(document.entries.map(\.type) == ["user", "password", "submit", "signedIn"])
    #expect(document.entries.map(\.sequence) == [1, 2, 3, 4])
    #expect(document.entries.map(\.causeKind) == ["user", "user", "user", "effect"])
    let last = try #require(document.stateText(after: 3))
    #expect(
      try sortedJSON(JSONSerialization.jsonObject(with: Data(last.utf8)))
        == #"{"attempts":1,"password":"<redacted>","token":7,"user":"ada"}"#)
  }

  @Test func redactedValuesReachTheExtensionOnlyAsPlaceholders() async throws {
    let run = try await signInWithExtension("devtools-redacted.html")
    let everything = run.calls.joined().joined()
    #expect(!everything.contains("hunter2"))
    #expect(everything.contains(#""password":"<redacted>""#))
    #expect(everything.contains(#""payload":{"password":{"_0":"<redacted>"}}"#))
  }

  @Test func aJumpToAStateSelectsItsEntryInTheViewer() async throws {
    let run = try await signInWithExtension(
      "devtools-jump-state.html", messages: [jump(#"{type: "JUMP_TO_STATE", index: 3}"#)])
    #expect(run.dom.contains(#"data-selected="3""#))
    #expect(run.dom.contains(#"<div class="row selected" data-pos="2""#))
    #expect(run.dom.contains("<pre>#3 submit  index 2"))
  }

  @Test func aJumpToAnActionSelectsItsEntryInTheViewer() async throws {
    let run = try await signInWithExtension(
      "devtools-jump-action.html", messages: [jump(#"{type: "JUMP_TO_ACTION", actionId: 4}"#)])
    #expect(run.dom.contains(#"data-selected="4""#))
    #expect(run.dom.contains(#"<div class="row selected" data-pos="3""#))
  }

  @Test func aJumpToTheFirstStateShowsTheBaseState() async throws {
    let run = try await signInWithExtension(
      "devtools-jump-base.html",
      messages: [
        jump(#"{type: "JUMP_TO_STATE", index: 2}"#), jump(#"{type: "JUMP_TO_STATE", index: 0}"#),
      ])
    #expect(!run.dom.contains("data-selected="))
    #expect(!run.dom.contains(#"class="row selected""#))
    #expect(run.dom.contains("<h2>Base state</h2><pre>before #1</pre>"))
    #expect(run.dom.contains(#"<span class="key">attempts</span>: 0"#))
  }

  @Test func aPageWithoutEveryStateDoesNotConnect() async throws {
    let snapshot = await signInSession()
    // Journal JSON keeps the states of its checkpoints only: the entries between have none.
    let document = try JournalFile(data: snapshot.journalJSON())
    let run = try openWithExtension(
      "devtools-no-states.html", Data(JournalViewer.html(for: document).utf8), sends: 0)
    #expect(run.calls.isEmpty)
    #expect(run.dom.contains("4 entries, 4 shown"))
  }
}
