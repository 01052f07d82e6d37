// The Chronicle demo: a small app run headless with every middleware attached — a todo list
// loaded by a thunk, a stopwatch on a timer, a debounced search field and a login form whose
// password is redacted. The logger prints each action as it happens. Then the store travels
// through its history (undo, redo, jump), a replay checks that the reducer reproduces every
// recorded state, and the journal is written in every format.
// Run it with `swift run chronicle-demo [output-folder]`.
import Chronicle
import Foundation

let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "chronicle-demo-output")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let output = DemoOutput(folder: folder)

let stream = try NDJSONFileSink<DemoApp.State, DemoApp.Action>(url: output.url("journal.ndjson"))
let journal = Journal(reducer: DemoApp(), configuration: .init(checkpointInterval: 4, sinks: [stream]))
let travel = TimeTravel(journal: journal)
let store = Store(
  initialState: DemoApp.State(), reducer: DemoApp(),
  middleware: [.timeTravel(travel)] + demoMiddleware(journal: journal))
travel.attach(store)

print("── todos: an async load through a thunk")
store.send(.loadTodos, context: "TodoList")
await store.waitUntilIdle()
store.send(.toggle(id: 1), context: "TodoList")
store.send(.add("Write the docs"), context: "TodoList")

print(DemoApp.stopwatchHeading)
store.send(.startStopwatch, context: "Stopwatch")
await store.waitUntilIdle()

print("── search: three keystrokes, debounced into one search")
for query in ["m", "mi", "mil"] { store.send(.search(query), context: "Search") }
await store.waitUntilIdle()

print("── login: the password is redacted everywhere")
store.send(.user("ada"), context: "LoginForm")
store.send(.password(Redacted("correct horse battery staple")), context: "LoginForm")
store.send(.submitLogin, context: "LoginForm")
await store.waitUntilIdle()

print("── time travel and replay")
travelThroughTime(travel, store: store)
verifyReplay(of: journal, store: store)

stream.close()
try output.write(journal.snapshot())
let state = store.state
print(
  """

  \(journal.count) actions recorded: \(state.todos.count) todos, stopwatch at \(state.stopwatch) ms, \
  \(state.matches.count) match for "\(state.query)", logged in: \(state.isLoggedIn)

  Wrote to \(folder.path):
  """)
for file in DemoOutput.files {
  print("  \(file.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(file.howToOpen)")
}
print("\n" + output.hint(opener: DemoOutput.systemOpener()))
