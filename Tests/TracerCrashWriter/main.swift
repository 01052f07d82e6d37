// A child process for FormatsTests' crash test: it records a store into an NDJSON file sink,
// forever, with large lines, and prints "ready" once the file holds a given number of entries.
// The test kills it with SIGKILL while it appends, then loads the file.
//
// Usage: TracerCrashWriter <file> <entries before ready> <payload bytes> [background]
//
// With `background`, the sink writes in the background (up to 64 pending lines) and the writer
// flushes it before it says "ready".
//
// The store's state and actions are `String`s, so that the test can load the file with the
// same types (a type declared here would have another module name).
import ChronicleFormats
import Foundation

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), let readyAfter = Int(arguments[2]),
  let payloadBytes = Int(arguments[3])
else {
  FileHandle.standardError.write(
    Data("usage: TracerCrashWriter <file> <entries before ready> <payload bytes> [background]\n".utf8))
  exit(2)
}
let background = arguments.count == 5 && arguments[4] == "background"

let sink = try NDJSONFileSink<String, String>(
  url: URL(fileURLWithPath: arguments[1]),
  writing: background ? .inBackground(maxPendingLines: 64) : .eachLine)
let journal = Journal<String, String>(
  configuration: .init(checkpointInterval: 8, maxEntries: 16, sinks: [sink])
) { state, action in
  state = action
  return .none
}
let store = Store<String, String>(initialState: "", middleware: [.tracer(journal)]) { state, action in
  state = action
  return .none
}

let filler = Array("abcdefghijklmnopqrstuvwxyz0123456789")
var sent = 0
while true {
  sent += 1
  // Every payload differs, so a torn line can never pass for a complete one.
  let letter = filler[sent % filler.count]
  store.send("\(sent):" + String(repeating: letter, count: payloadBytes))
  if let error = sink.error {
    FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
    exit(1)
  }
  if sent == readyAfter {
    sink.flush()
    FileHandle.standardOutput.write(Data("ready\n".utf8))
  }
}
