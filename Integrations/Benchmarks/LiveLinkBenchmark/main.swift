// live-link-benchmark: measures the app side of the live inspector (issue 26, "Performance")
// against a real `chronicle-inspector` process, each figure beside a reference taken in the same
// run. Not a test: it prints figures, which Benchmarks/HISTORY.md ("Live inspector: the app side") records.
//
//   swift build -c release --package-path Integrations --product chronicle-inspector
//   swift build -c release --package-path Integrations --product live-link-benchmark
//   B=Integrations/.build/release
//   $B/live-link-benchmark send       $B/chronicle-inspector [SAMPLES] [ACTIONS]   # 5 × 100,000
//   $B/live-link-benchmark latency    $B/chronicle-inspector [SAMPLES] [SECONDS] [RATE]   # 3 × 5 s at 1,000/s
//   $B/live-link-benchmark throughput $B/chronicle-inspector [SAMPLES] [ACTIONS] [big|default] [RATE]
//   $B/live-link-benchmark stall      $B/chronicle-inspector [ACTIONS] [link|reference]
//
// - send: `send` with the tracer alone, then with the tracer and a connected link (same journal
//   configuration), alternately: the sending thread's CPU time per action, and the process's CPU
//   time per action up to the inspector's acknowledgement of the last line.
// - latency: actions at RATE per second; a thread of the app polls the link's acknowledged line
//   number every 100 µs and stamps each entry whose state line (its second line) is acknowledged.
//   The inspector acknowledges a batch once it wrote it to `link.ndjson` and `journal.ndjson`:
//   the figure is send → stored by the inspector → acknowledgement back at the app.
// - throughput: ACTIONS as fast as `send` goes (or at RATE per second); entries per second from the first send to the
//   acknowledgement of the last line, lines dropped, and the CPU seconds of app and inspector.
//   `big` raises the stream's and the journal's limits to hold every entry; `default` keeps them.
// - latency and throughput also print the bytes the app wrote to its socket (`wchar` of
//   /proc/self/io: WebSocket frames and their headers, no TCP/IP) per entry, beside the bytes of
//   the entry's NDJSON sink line (the inspector's `journal.ndjson` holds the sink's lines byte for
//   byte: its size after the header line, per entry).
// - stall: connects, stops the inspector (SIGSTOP: connected, not reading), sends ACTIONS, reads
//   the app's resident memory, resumes the inspector, waits until everything left is acknowledged
//   and counts the entries and gaps in the session's `link.ndjson`. `reference` is the same run
//   with the tracer alone (no inspector); run each in its own process.
import ChronicleFormats
import ChronicleLiveLink
import ChronicleStore
import ChronicleTracer
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

typealias Link = LiveLink<Counter.State, Counter.Action>

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("live-link-benchmark: " + message + "\n").utf8))
  exit(2)
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// MARK: Clocks and counters

func nanoseconds(_ clock: clockid_t) -> UInt64 {
  var time = timespec()
  clock_gettime(clock, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The calling thread's CPU time.
func threadCPU() -> UInt64 { nanoseconds(CLOCK_THREAD_CPUTIME_ID) }
func monotonic() -> UInt64 { nanoseconds(CLOCK_MONOTONIC) }

/// The process's CPU time (user + system, every thread).
func processCPU() -> UInt64 {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func ns(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
  return ns(usage.ru_utime) + ns(usage.ru_stime)
}

/// A field of a `/proc` file of the form `name: value`.
func procField(_ path: String, _ name: String) -> Int {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
    let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
    return Int(digits) ?? 0
  }
  return 0
}

/// The bytes this process passed to write(2) and its kin (sockets included).
func bytesWritten() -> Int { procField("/proc/self/io", "wchar") }
/// Resident memory now, in bytes.
func resident() -> Int { procField("/proc/self/status", "VmRSS") * 1_024 }
/// The peak resident memory, in bytes.
func peakResident() -> Int { procField("/proc/self/status", "VmHWM") * 1_024 }

/// The CPU time (user + system) of process `pid`, in nanoseconds (clock-tick resolution).
func cpuOfProcess(_ pid: Int32) -> UInt64 {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = text.lastIndex(of: ")")
  else { return 0 }
  // Fields after the command's closing parenthesis start at field 3; utime is 14, stime 15.
  let fields = text[text.index(after: close)...].split(separator: " ")
  guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return 0 }
  return (user + system) * 1_000_000_000 / UInt64(sysconf(Int32(_SC_CLK_TCK)))
}

func loadAverage() -> String {
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
    .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "?"
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

// MARK: The inspector

/// A `chronicle-inspector` process with its own data folder.
final class Inspector {
  let process = Process()
  let data: URL
  let url: URL
  static let token = "live-link-benchmark"

  init(executable: String) {
    data = FileManager.default.temporaryDirectory.appendingPathComponent(
      "live-link-benchmark-\(UUID().uuidString)", isDirectory: true)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--port", "0", "--data", data.path, "--token", Self.token]
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { fail("cannot start \(executable): \(error)") }
    // Its second line: `apps connect to ws://HOST:PORT/live/app`.
    var text = ""
    while !text.contains("apps connect to ") || !text.hasSuffix("\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { fail("the inspector exited before printing its address") }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("apps connect to ") }),
      let url = URL(string: String(line.dropFirst("apps connect to ".count)))
    else { fail("no app address in the inspector's output") }
    self.url = url
  }

  var cpu: UInt64 { cpuOfProcess(process.processIdentifier) }

  /// The bytes of the numbered lines the session's `link.ndjson` holds (each stored as
  /// `{"n":N,"line":L}`; `L` is the line as received, without its newline), per kind.
  func linkLineBytes(_ instance: String) -> (entry: Int, state: Int, other: Int) {
    guard
      let text = try? String(
        contentsOf: session(instance).appendingPathComponent("link.ndjson"), encoding: .utf8)
    else { return (0, 0, 0) }
    var bytes = (entry: 0, state: 0, other: 0)
    for stored in text.split(separator: "\n") {
      guard let start = stored.range(of: #","line":"#)?.upperBound else { continue }
      let line = stored[start..<stored.index(before: stored.endIndex)]
      if line.hasPrefix(#"{"entry":"#) {
        bytes.entry += line.utf8.count
      } else if line.hasPrefix(#"{"state":"#) {
        bytes.state += line.utf8.count
      } else {
        bytes.other += line.utf8.count
      }
    }
    return bytes
  }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  func stop() {
    process.terminate()
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: data)
  }

  /// The session folder of `instance`.
  func session(_ instance: String) -> URL { data.appendingPathComponent(instance, isDirectory: true) }

  /// The bytes of the NDJSON lines after the header in the session's `journal.ndjson`, and their count.
  func ndjsonBytes(_ instance: String) -> (bytes: Int, lines: Int) {
    guard let text = try? Data(contentsOf: session(instance).appendingPathComponent("journal.ndjson")),
      let header = text.firstIndex(of: 0x0A)
    else { return (0, 0) }
    let body = text[text.index(after: header)...]
    return (body.count, body.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
  }
}

/// A store whose tracer records into `journal`, optionally linked to an inspector.
struct App {
  let journal: Journal<Counter.State, Counter.Action>
  let store: Store<Counter.State, Counter.Action>
  let link: Link?

  init(
    inspector: Inspector?,
    journal configuration: Journal<Counter.State, Counter.Action>.Configuration = .init(),
    limits: JournalLiveStream<Counter.State, Counter.Action>.Limits = .init(), compresses: Bool = true
  ) {
    journal = Journal(reducer: Counter(), configuration: configuration)
    store = Store(initialState: Counter.State(), reducer: Counter(), middleware: [.tracer(journal)])
    guard let inspector else {
      link = nil
      return
    }
    let connected = DispatchSemaphore(value: 0)
    link = Link(
      configuration: .init(
        url: inspector.url, token: Inspector.token, name: "live-link-benchmark", limits: limits,
        compresses: compresses),
      journal: journal, store: store,
      onEvent: { event in
        if case .connected = event { connected.signal() }
      })
    if connected.wait(timeout: .now() + 30) == .timedOut { fail("the link did not connect within 30 s") }
  }

  /// Waits until the inspector acknowledged every line the journal made so far.
  func waitUntilAcknowledged(timeout: Double = 600) {
    guard let link else { return }
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      link.stream.catchUp()
      let statistics = link.stream.statistics
      if statistics.lastNumber > 0 && statistics.acknowledged >= statistics.lastNumber { return }
      usleep(1_000)
    }
    fail("not everything was acknowledged within \(timeout) s")
  }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

// MARK: The scenarios

/// Item 1: `send` with the tracer alone vs with the tracer and a connected link.
func sendCost(_ inspector: Inspector, samples: Int, actions: Int) {
  say("send: \(samples) samples × \(actions) actions; per action, ns (thread CPU | process CPU)")
  var ratios: [Double] = []
  for sample in 1...samples {
    var results: [(thread: Double, process: Double)] = []
    for linked in [false, true] {
      let app = App(inspector: linked ? inspector : nil)
      let process0 = processCPU()
      let thread0 = threadCPU()
      for _ in 0..<actions { app.store.send(.increment) }
      let thread = threadCPU() - thread0
      app.waitUntilAcknowledged()
      let process = processCPU() - process0
      app.link?.close()
      results.append((Double(thread) / Double(actions), Double(process) / Double(actions)))
    }
    let ratio = results[1].thread / results[0].thread
    ratios.append(ratio)
    say(
      "  sample \(sample): tracer \(format(results[0].thread, 0)) | \(format(results[0].process, 0))"
        + "  linked \(format(results[1].thread, 0)) | \(format(results[1].process, 0))"
        + "  ratio thread \(format(ratio)) process \(format(results[1].process / results[0].process))"
        + "  load \(loadAverage())")
  }
  say("  thread ratio median \(format(ratios.sorted()[ratios.count / 2])) (target ≤ 1.5)")
}

/// The send and acknowledgement times of a latency sample, shared with the polling thread.
final class Stamps: @unchecked Sendable {
  let sent: UnsafeMutableBufferPointer<UInt64>
  let acknowledged: UnsafeMutableBufferPointer<UInt64>
  /// How many entries' send times are written (the poller reads no further).
  let sentCount = Atomic<Int>(0)
  let done = Atomic<Bool>(false)

  init(count: Int) {
    sent = .allocate(capacity: count)
    acknowledged = .allocate(capacity: count)
    sent.initialize(repeating: 0)
    acknowledged.initialize(repeating: 0)
  }

  deinit {
    sent.deallocate()
    acknowledged.deallocate()
  }
}

/// Items 2 and 5: latency from `send` to the inspector's acknowledgement at RATE actions/s.
func latency(_ inspector: Inspector, samples: Int, seconds: Double, rate: Double) {
  let count = Int(seconds * rate)
  say("latency: \(samples) samples × \(count) actions at \(Int(rate))/s; send → acknowledged, ms")
  for sample in 1...samples {
    for compresses in [true, false] {
      let app = App(inspector: inspector, compresses: compresses)
      guard let link = app.link else { return }
      let stamps = Stamps(count: count)
      // Lines are numbered from 1: entry k's entry line is 2k - 1, its state line 2k (no effects,
      // no gaps: checked below).
      let poller = Thread {
        var stamped = 0
        while !stamps.done.load(ordering: .acquiring) {
          let complete = min(link.acknowledged / 2, stamps.sentCount.load(ordering: .acquiring))
          if complete > stamped {
            let now = monotonic()
            for index in stamped..<complete { stamps.acknowledged[index] = now }
            stamped = complete
          }
          usleep(100)
        }
      }
      poller.start()
      let wrote0 = bytesWritten()
      let inspector0 = inspector.cpu
      let process0 = processCPU()
      let start = monotonic()
      for index in 0..<count {
        let due = start + UInt64(Double(index) / rate * 1e9)
        let now = monotonic()
        if due > now { usleep(UInt32((due - now) / 1_000)) }
        stamps.sent[index] = monotonic()
        app.store.send(.increment)
        stamps.sentCount.store(index + 1, ordering: .releasing)
      }
      app.waitUntilAcknowledged()
      let appCPU = processCPU() - process0
      let inspectorCPU = inspector.cpu - inspector0
      usleep(2_000)
      stamps.done.store(true, ordering: .releasing)
      while !poller.isFinished { usleep(1_000) }
      let wrote = bytesWritten() - wrote0
      let statistics = link.stream.statistics
      link.close()
      guard statistics.lastNumber == 2 * count, statistics.droppedLines == 0 else {
        fail("unexpected numbering: \(statistics)")
      }
      let latencies = (0..<count).map { Double(stamps.acknowledged[$0] - stamps.sent[$0]) / 1e6 }.sorted()
      let ndjson = inspector.ndjsonBytes(link.instance.id)
      say(
        "  sample \(sample) \(compresses ? "deflate" : "text   "): p50 \(format(latencies[count / 2], 3))"
          + " p90 \(format(percentile(latencies, 0.9), 3))"
          + " p99 \(format(percentile(latencies, 0.99), 3)) max \(format(latencies[count - 1], 3))"
          + "  app CPU \(format(Double(appCPU) / 1e9)) s"
          + " inspector CPU \(format(Double(inspectorCPU) / 1e9)) s"
          + "  wire \(format(Double(wrote) / Double(count), 1)) B/entry"
          + " NDJSON \(format(Double(ndjson.bytes) / Double(max(1, ndjson.lines)), 1)) B/entry (\(ndjson.lines) lines)"
          + breakdown(inspector, link.instance.id, entries: count)
          + "  load \(loadAverage())")
    }
  }
}

/// What the lines received hold per entry, newlines included: entry lines, state lines, others.
func breakdown(_ inspector: Inspector, _ instance: String, entries: Int) -> String {
  let bytes = inspector.linkLineBytes(instance)
  let per = { (value: Int) in format(Double(value + entries) / Double(max(1, entries)), 1) }
  return " (lines per entry: entry \(per(bytes.entry)) + state \(per(bytes.state)) B"
    + " + other \(format(Double(bytes.other) / Double(max(1, entries)), 2)) B)"
}

/// Items 3 and 5: entries per second, nothing dropped.
func throughput(_ inspector: Inspector, samples: Int, actions: Int, big: Bool, rate: Double) {
  let pace = rate > 0 ? "at \(Int(rate))/s" : "as fast as send goes"
  say("throughput: \(samples) samples × \(actions) actions \(pace), limits \(big ? "big" : "default")")
  for sample in 1...samples {
    for compresses in [true, false] {
      let app =
        big
        ? App(
          inspector: inspector, journal: .init(maxEntries: actions + 1, maxBytes: nil),
          limits: .init(maxEntries: actions + 1, maxBytes: 1 << 30), compresses: compresses)
        : App(inspector: inspector, compresses: compresses)
      guard let link = app.link else { return }
      let wrote0 = bytesWritten()
      let inspector0 = inspector.cpu
      let process0 = processCPU()
      let start = monotonic()
      for index in 0..<actions {
        if rate > 0 {
          // Paced: sleeps whenever more than half a millisecond ahead.
          let due = start + UInt64(Double(index) / rate * 1e9)
          let now = monotonic()
          if due > now + 500_000 { usleep(UInt32((due - now) / 1_000)) }
        }
        app.store.send(.increment)
      }
      let sent = monotonic() - start
      app.waitUntilAcknowledged()
      let elapsed = monotonic() - start
      // CPU up to the last acknowledgement, before the files are read for the figures below.
      let appCPU = processCPU() - process0
      let inspectorCPU = inspector.cpu - inspector0
      let wrote = bytesWritten() - wrote0
      let statistics = link.stream.statistics
      link.close()
      let ndjson = inspector.ndjsonBytes(link.instance.id)
      let delivered = actions - statistics.droppedEntries
      say(
        "  sample \(sample) \(compresses ? "deflate" : "text   "):"
          + " \(format(Double(delivered) / (Double(elapsed) / 1e9), 0)) entries/s"
          + " (\(delivered) delivered, \(statistics.droppedEntries) entries dropped; sends took"
          + " \(format(Double(sent) / 1e9, 3)) s, last acknowledged after \(format(Double(elapsed) / 1e9, 3)) s)"
          + "  app CPU \(format(Double(appCPU) / 1e9)) s"
          + " inspector CPU \(format(Double(inspectorCPU) / 1e9)) s"
          + "  wire \(format(Double(wrote) / Double(max(1, delivered)), 1)) B/entry"
          + " NDJSON \(format(Double(ndjson.bytes) / Double(max(1, ndjson.lines)), 1)) B/entry"
          + breakdown(inspector, link.instance.id, entries: delivered)
          + "  load \(loadAverage())")
    }
  }
}

/// Item 4: memory and the gap with the inspector stalled.
func stall(_ inspector: Inspector?, actions: Int) {
  let before = resident()
  let app = App(inspector: inspector)
  let connected = resident()
  inspector?.signal(SIGSTOP)
  let start = monotonic()
  for _ in 0..<actions { app.store.send(.increment) }
  let elapsed = Double(monotonic() - start) / 1e9
  // Let the stream's thread read what it can.
  usleep(200_000)
  let after = resident()
  let peak = peakResident()
  say(
    "stall (\(inspector == nil ? "reference: tracer alone" : "linked, inspector stopped")): \(actions) actions"
      + " in \(format(elapsed)) s; resident MB: before \(format(Double(before) / 1e6, 1))"
      + " set up \(format(Double(connected) / 1e6, 1)) after \(format(Double(after) / 1e6, 1))"
      + " peak \(format(Double(peak) / 1e6, 1)); growth from set up \(format(Double(after - connected) / 1e6, 1))"
      + " (peak \(format(Double(peak - connected) / 1e6, 1)))  load \(loadAverage())")
  guard let inspector, let link = app.link else { return }
  let held = link.stream.statistics
  say(
    "  while stopped: held \(held.heldEntries) entries, \(held.heldLines) lines,"
      + " \(format(Double(held.heldBytes) / 1e6, 2)) MB; acknowledged \(held.acknowledged)")
  inspector.signal(SIGCONT)
  app.waitUntilAcknowledged()
  let statistics = link.stream.statistics
  link.close()
  // What the inspector stored: entry lines, and what its gap lines say was lost.
  var entries = 0
  var gapEntries = 0
  var gapLines = 0
  var gaps = 0
  let text =
    (try? String(
      contentsOf: inspector.session(link.instance.id).appendingPathComponent("link.ndjson"), encoding: .utf8))
    ?? ""
  for line in text.split(separator: "\n") {
    if line.contains(#""line":{"entry":"#) { entries += 1 }
    if line.contains(#""line":{"gap":"#),
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let inner = object["line"] as? [String: Any], let gap = inner["gap"] as? [String: Any],
      let dropped = gap["dropped"] as? Int, let lost = gap["entries"] as? Int
    {
      gaps += 1
      gapLines += dropped
      gapEntries += lost
    }
  }
  say(
    "  inspector stored \(entries) entries; \(gaps) gap line(s) saying \(gapEntries) entries"
      + " (\(gapLines) lines) lost; stored + lost = \(entries + gapEntries) of \(actions) sent"
      + " (\(entries + gapEntries == actions ? "exact" : "NOT exact")); the link counted"
      + " \(statistics.droppedEntries) entries, \(statistics.droppedLines) lines dropped")
}

// MARK: Main

let allArguments = Array(CommandLine.arguments.dropFirst())
guard allArguments.count >= 2 else {
  fail("usage: live-link-benchmark send|latency|throughput|stall PATH-TO-chronicle-inspector [ARGUMENTS…]")
}
let mode = allArguments[0]
let executable = allArguments[1]
let arguments = Array(allArguments.dropFirst(2))
@MainActor func number(_ index: Int, _ otherwise: Double) -> Double {
  guard index < arguments.count else { return otherwise }
  guard let value = Double(arguments[index]) else { fail("\(arguments[index]) is not a number") }
  return value
}
say("load average at start: \(loadAverage())")
switch mode {
case "send":
  let inspector = Inspector(executable: executable)
  sendCost(inspector, samples: Int(number(0, 5)), actions: Int(number(1, 100_000)))
  inspector.stop()
case "latency":
  let inspector = Inspector(executable: executable)
  latency(inspector, samples: Int(number(0, 3)), seconds: number(1, 5), rate: number(2, 1_000))
  inspector.stop()
case "throughput":
  let inspector = Inspector(executable: executable)
  throughput(
    inspector, samples: Int(number(0, 3)), actions: Int(number(1, 300_000)),
    big: arguments.count > 2 && arguments[2] == "big", rate: number(3, 0))
  inspector.stop()
case "stall":
  let linked = !(arguments.count > 1 && arguments[1] == "reference")
  let inspector = linked ? Inspector(executable: executable) : nil
  stall(inspector, actions: Int(number(0, 1_000_000)))
  inspector?.stop()
default:
  fail("unknown mode \(mode)")
}
