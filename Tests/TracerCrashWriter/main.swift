// A child process for FormatsTests' crash test: it records a store into an NDJSON file sink,
// forever, with large lines, and prints "ready" once the file holds a given number of entries.
// The test kills it with SIGKILL while it appends, then loads the file.
//
// Usage: TracerCrashWriter <file> <entries before ready> <payload bytes>
//
// The store's state and actions are `String`s, so that the test can load the file with the
// same types (a type declared here would have another module name).
import ChronicleFormats
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let readyAfter = Int(arguments[2]), let payloadBytes = Int(arguments[3]) else {
  FileHandle.standardError.write(
    Data("usage: TracerCrashWriter <file> <entries before ready> <payload bytes>\n".utf8))
  exit(2)
}

let sink = try NDJSONFileSink<String, String>(url: URL(fileURLWithPath: arguments[1]))
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
    FileHandle.standardOutput.write(Data("ready\n".utf8))
  }
}
