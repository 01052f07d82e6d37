// The HTML viewer at scale (issue 12): 20,000 and 100,000 entries of a 200-item list state, each
// action toggling, appending or removing one item, written to a file with writeHTMLViewer.
//
// Each iteration writes the whole page; the scenario prints, for run.sh, every sample's CPU time
// (this process's, from CLOCK_PROCESS_CPUTIME_ID) and wall time, the file's size and the peak
// resident memory (Linux `VmHWM`).

import Benchmark
import ChronicleFormats
import ChronicleStore
import ChronicleTracer
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A list of identified items; each action changes, appends or removes one.
struct ItemList: Reducer {
  struct Item: Equatable, Sendable, Codable, Identifiable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Equatable, Sendable, Codable {
    var items = (0..<200).map { Item(id: $0, title: "item \($0)") }
    var nextID = 200
  }

  enum Action: Equatable, Sendable, Codable {
    case toggle(Int)
    case append
    case removeFirst
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle(let offset): state.items[offset % state.items.count].done.toggle()
    case .append:
      state.items.append(Item(id: state.nextID, title: "item \(state.nextID)"))
      state.nextID += 1
    case .removeFirst: state.items.removeFirst()
    }
    return .none
  }
}

/// A journal of `count` actions on the list, recorded through a store with the tracer.
func recordedItemList(_ count: Int) -> JournalSnapshot<ItemList.State, ItemList.Action> {
  let journal = Journal<ItemList.State, ItemList.Action>(
    reducer: ItemList(), configuration: .init(maxEntries: nil, maxBytes: nil))
  let store = Store(initialState: ItemList.State(), reducer: ItemList(), middleware: [.tracer(journal)])
  for step in 0..<count {
    switch step % 3 {
    case 0: store.send(.toggle(step))
    case 1: store.send(.append)
    default: store.send(.removeFirst)
    }
  }
  return journal.snapshot()
}

/// This process's CPU time so far, in nanoseconds.
func processCPUNanoseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Where the last page of a viewer scenario is kept.
func keptViewerPage(_ count: Int) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("chronicle-viewer-\(count).html")
}

/// Every sample of a viewer scenario, for the teardown to print.
nonisolated(unsafe) var viewerSamples: [(cpu: Int64, wall: Int64, bytes: Int)] = []

func registerViewerBenchmarks() {
  for count in [20_000, 100_000] {
    let name = "viewer/\(count / 1_000)k-entries-200-items"
    let configuration = Benchmark.Configuration(
      metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 0, scalingFactor: .one,
      maxDuration: .seconds(count == 20_000 ? 60 : 240), maxIterations: 5)
    Benchmark(name, configuration: configuration) { benchmark, snapshot in
      let url = exportFile("viewer-\(count).html")
      let cpu = processCPUNanoseconds()
      let wall = ContinuousClock.now
      benchmark.startMeasurement()
      do {
        try snapshot.writeHTMLViewer(to: url, title: name)
      } catch {
        fatalError("\(error)")
      }
      benchmark.stopMeasurement()
      let elapsed = wall.duration(to: .now)
      viewerSamples.append(
        (
          processCPUNanoseconds() - cpu,
          elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000,
          fileSize(url)
        ))
      // The last page is kept, for run.sh to time how long Chromium takes to open it.
      let kept = keptViewerPage(count)
      try? FileManager.default.removeItem(at: kept)
      try? FileManager.default.moveItem(at: url, to: kept)
    } setup: {
      recordedItemList(count)
    } teardown: {
      let cpu = viewerSamples.map { String($0.cpu) }.joined(separator: ",")
      let wall = viewerSamples.map { String($0.wall) }.joined(separator: ",")
      FileHandle.standardError.write(
        Data(
          ("chronicle-viewer: \(name) entries \(count) bytes \(viewerSamples.last?.bytes ?? 0) "
            + "cpu \(cpu) wall \(wall) peak \(residentBytes(peak: true)) page \(keptViewerPage(count).path)\n")
            .utf8))
    }
  }
}
