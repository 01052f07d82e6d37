// A counter connected to a live inspector, for trying the inspector and for its end-to-end tests.
//
//   inspected-counter --url ws://127.0.0.1:PORT/live/app --token TOKEN [--name NAME] [--count N]
//                     [--rate PER_SECOND] [--allow all|none] [--stay]
//
// It sets up its store, journal, time travel and link (printing `instance <id>`), then sends N
// `increment` actions at the given rate (0: as fast as it can), after one `setSecret` action.
// Each time the inspector welcomes it, it prints `connected`. Without `--stay` it waits until the
// inspector acknowledged every line, then exits. With `--stay` it reads commands from stdin:
//
//   state                 → state <the current state as JSON, redacted>
//   send <action JSON>    → sent            (e.g. send {"add":{"_0":5}}; an error line if it does not decode)
//   export <path>         → exported        (the journal's Journal JSON export, redacted)
//   flushed?              → flushed <n>     (the last line number the inspector acknowledged)
//   quit                  → closes the link and exits
//
// Its state holds a secret (`@Redacted`, "hunter2-state-secret") and its `setSecret` action
// another ("hunter2-action-secret"): neither may appear in anything the inspector receives or saves.
import ChronicleFormats
import ChronicleInspection
import ChronicleLiveLink
import ChronicleStore
import ChronicleTimeTravel
import ChronicleTracer
import Foundation

struct InspectedCounter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    @Redacted var secret = "hunter2-state-secret"
    var secretChanges = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
    case add(Int)
    case setSecret(Redacted<String>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .add(let amount): state.count += amount
    case .setSecret(let secret):
      state.secret = secret.wrappedValue
      state.secretChanges += 1
    }
    return .none
  }
}

/// Writes a line to stdout at once (stdout is a pipe in the tests: buffered, lines would wait).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("inspected-counter: " + message + "\n").utf8))
  exit(2)
}

struct Options {
  var url: URL?
  var token = ""
  var name = "inspected-counter"
  var count = 0
  var rate = 0.0
  var allowAll = false
  var stay = false

  init(_ arguments: [String]) {
    var arguments = arguments[...]
    func value(_ flag: String) -> String {
      guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
      return value
    }
    while let flag = arguments.popFirst() {
      switch flag {
      case "--url": url = URL(string: value(flag))
      case "--token": token = value(flag)
      case "--name": name = value(flag)
      case "--count": count = Int(value(flag)) ?? { fail("--count needs a number") }()
      case "--rate": rate = Double(value(flag)) ?? { fail("--rate needs a number") }()
      case "--allow":
        switch value(flag) {
        case "all": allowAll = true
        case "none": allowAll = false
        default: fail("--allow takes all or none")
        }
      case "--stay": stay = true
      default: fail("unknown argument \(flag)")
      }
    }
  }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard let url = options.url else { fail("--url ws://HOST:PORT/live/app is required") }

// Set up first: what the store records from here on is buffered until an inspector has it.
let journal = Journal(reducer: InspectedCounter())
let travel = TimeTravel(journal: journal)
let store = Store(
  initialState: InspectedCounter.State(), reducer: InspectedCounter(),
  middleware: [.timeTravel(travel), .tracer(journal)])
travel.attach(store)
let link = LiveLink(
  configuration: .init(
    url: url, token: options.token, name: options.name,
    allowed: options.allowAll ? Set(LiveCommand.Name.allCases) : []),
  journal: journal, store: store, timeTravel: travel,
  onEvent: { event in
    if case .connected = event { say("connected") }
  })
say("instance \(link.instance.id)")

store.send(.setSecret(Redacted("hunter2-action-secret")))
let start = ContinuousClock.now
for step in 0..<options.count {
  if options.rate > 0 {
    let due = start + .seconds(Double(step) / options.rate)
    let wait = due - ContinuousClock.now
    if wait > .zero {
      Thread.sleep(
        forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds))
    }
  }
  store.send(.increment)
}

if !options.stay {
  // Done when the inspector holds every line the journal made.
  while true {
    link.stream.catchUp()
    let statistics = link.stream.statistics
    if statistics.lastNumber > 0 && statistics.acknowledged >= statistics.lastNumber { break }
    Thread.sleep(forTimeInterval: 0.01)
  }
  link.close()
  exit(0)
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
while let line = readLine() {
  let (command, argument) = {
    guard let space = line.firstIndex(of: " ") else { return (line, "") }
    return (String(line[..<space]), String(line[line.index(after: space)...]))
  }()
  switch command {
  case "state":
    let json = (try? encoder.encode(store.state)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    say("state \(json)")
  case "send":
    do {
      let action = try JSONDecoder().decode(InspectedCounter.Action.self, from: Data(argument.utf8))
      store.send(action)
      say("sent")
    } catch {
      say("error \(error)")
    }
  case "export":
    do {
      try journal.snapshot().journalJSON().write(to: URL(fileURLWithPath: argument))
      say("exported")
    } catch {
      say("error \(error)")
    }
  case "flushed?":
    say("flushed \(link.acknowledged)")
  case "quit":
    link.close()
    exit(0)
  default:
    say("error unknown command \(command)")
  }
}
link.close()
