import Chronicle
import Foundation

/// The files the demo writes, and how to open each.
struct DemoOutput {
  let folder: URL

  /// One written file: its name and how to look at it.
  struct File {
    var name: String
    var howToOpen: String
  }

  static let files = [
    File(
      name: "journal.json", howToOpen: "Journal JSON: chronicle summary|show|diff|filter, or any JSON viewer"),
    File(
      name: "journal.ndjson", howToOpen: "the NDJSON stream written while the demo ran: chronicle summary"),
    File(name: "trace.json", howToOpen: "Chrome trace: open in https://ui.perfetto.dev or chrome://tracing"),
    File(
      name: "redux-devtools.json",
      howToOpen: "Redux DevTools → Import into the viewer page's instance: the recorded states"),
    File(
      name: "redux-devtools-custom.json",
      howToOpen: "Redux DevTools → Import into a Redux page: its reducer replays the actions"),
    File(
      name: "viewer.html",
      howToOpen: "the HTML viewer: any browser, no network; with Redux DevTools, shown there too"),
  ]

  /// Writes every export of `snapshot` into the folder.
  func write(_ snapshot: JournalSnapshot<DemoApp.State, DemoApp.Action>) throws {
    try snapshot.writeJournalJSON(to: url("journal.json"), options: ExportOptions(states: .everyEntry))
    try snapshot.writeChromeTrace(to: url("trace.json"))
    try snapshot.writeReduxDevTools(.liftedState, to: url("redux-devtools.json"))
    try snapshot.writeReduxDevTools(.custom, to: url("redux-devtools-custom.json"))
    try snapshot.writeHTMLViewer(to: url("viewer.html"), title: "Chronicle demo")
  }

  func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

  /// What to type to look at the results: the viewer's absolute path and `file://` URL (for any
  /// browser), the command that opens it when the system has one (`open` on macOS, `xdg-open`
  /// on Linux desktops), and a `chronicle` command on the journal.
  func hint(opener: String?) -> String {
    let viewer = url("viewer.html").standardizedFileURL
    var lines = [
      "Open the viewer in a browser:  \(viewer.path)",
      "                               \(viewer.absoluteString)",
    ]
    if let opener { lines.append("  or run:  \(opener) \(viewer.path)") }
    lines.append(
      "Summarise the journal:  swift run chronicle summary \(url("journal.json").standardizedFileURL.path)")
    return lines.joined(separator: "\n")
  }

  /// The command that opens a file in the desktop's default application, if there is one.
  static func systemOpener(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    #if os(macOS)
      return "open"
    #else
      let path = environment["PATH"] ?? ""
      let found = path.split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/xdg-open")
      }
      return found ? "xdg-open" : nil
    #endif
  }
}
