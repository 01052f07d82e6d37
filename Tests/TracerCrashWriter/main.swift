// A child process for FormatsTests' crash test: it records a store into an NDJSON file sink,
// forever, with large lines, and prints "ready" once the file holds a given number of entries.
// The test kills it with SIGKILL while it appends, then loads the file.
//
// Usage: TracerCrashWriter <file> <entries before ready> <payload bytes>
//   [background | counting | limited:N | printing | mapped | mapped-printing | mapped-limited:N]
//
// With `background`, the sink writes in the background (up to 64 pending lines) and the writer
// flushes it before it says "ready". With `counting`, the sink writes in the background with at
// most 16 pending lines, is never flushed nor asked for its error (which waits for the batch
// being written), its payloads are control characters, and the writer prints the number of entries sent
// (`12\n`) after each `send` returns. With `limited:N`,
// the process may write files of at most N bytes (RLIMIT_FSIZE, SIGXFSZ ignored), the sink
// writes in the background, and the writer sends until the sink reports its write error, then
// closes the sink, prints its `linesWritten` and exits with status 0. With `printing`, the sink writes each
// line and the writer prints the number of entries sent after each `send` returns, never
// flushing. A `mapped` prefix makes the sink write `.mapped(chunkBytes: 65_536)` (small chunks,
// so that kills land on growths too), the rest of the mode as without it.
//
// The store's state and actions are `String`s, so that the test can load the file with the
// same types (a type declared here would have another module name).
import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), let readyAfter = Int(arguments[2]),
  let payloadBytes = Int(arguments[3])
else {
  FileHandle.standardError.write(
    Data(
      "usage: TracerCrashWriter <file> <entries before ready> <payload bytes> [[mapped-]mode]\n"
        .utf8))
  exit(2)
}
let fullMode = arguments.count == 5 ? arguments[4] : "eachLine"
let mapped = fullMode.hasPrefix("mapped")
let mode =
  mapped ? (fullMode == "mapped" ? "eachLine" : String(fullMode.dropFirst("mapped-".count))) : fullMode
if mode.hasPrefix("limited:"), let bytes = rlim_t(mode.dropFirst("limited:".count)) {
  signal(SIGXFSZ, SIG_IGN)
  var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
  #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
  #else
    let resource = RLIMIT_FSIZE
  #endif
  guard setrlimit(resource, &limit) == 0 else {
    FileHandle.standardError.write(Data("setrlimit failed: errno \(errno)\n".utf8))
    exit(1)
  }
}

let sink = try NDJSONFileSink<String, String>(
  url: URL(fileURLWithPath: arguments[1]),
  writing: mapped
    ? .mapped(chunkBytes: 65_536)
    : mode == "background"
      ? .inBackground(maxPendingLines: 64)
      : mode == "counting"
        ? .inBackground(maxPendingLines: 16)
        : mode.hasPrefix("limited:") ? .inBackground() : .eachLine)
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
  if mode == "counting" {
    // Control characters, which the sink writes as `\u0001`: its thread has six times the bytes
    // to write that the sender has to make, so that lines wait for it.
    store.send("\(sent):" + String(repeating: "\u{1}", count: payloadBytes))
  } else {
    store.send("\(sent):" + String(repeating: letter, count: payloadBytes))
  }
  if mode.hasPrefix("limited:") {
    if sent.isMultiple(of: 16) { sink.flush() }
    if sink.error != nil {
      sink.close()
      FileHandle.standardOutput.write(Data("\(sink.linesWritten)\n".utf8))
      exit(0)
    }
  } else if mode != "counting", let error = sink.error {
    FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
    exit(1)
  }
  if mode == "counting" || mode == "printing" {
    FileHandle.standardOutput.write(Data("\(sent)\n".utf8))
  } else if sent == readyAfter {
    sink.flush()
    FileHandle.standardOutput.write(Data("ready\n".utf8))
  }
}
